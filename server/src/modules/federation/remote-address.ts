import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Loopback, private, link-local, carrier-grade NAT and unique-local ranges, and the unspecified addresses. */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

function isPrivateIp(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  return PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Whether an address another server gave (an inbox) points into a private network: a remote actor
 * must not make this site send requests to its own machines. The ActivityPub library checks the
 * documents it fetches; the inboxes it delivers to are checked here before they are kept.
 */
export async function isPrivateAddress(url: string): Promise<boolean> {
  let host: string;
  try {
    const u = new URL(url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return true;
    host = u.hostname.replace(/^\[|\]$/g, '');
  } catch {
    return true;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host)) return isPrivateIp(host);
  try {
    const addresses = await lookup(host, { all: true });
    return addresses.some((a) => isPrivateIp(a.address));
  } catch {
    // A name that does not resolve cannot be delivered to; the delivery will fail and be retried.
    return false;
  }
}
