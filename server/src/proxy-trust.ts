import net from 'node:net';
import proxyAddr from '@fastify/proxy-addr';

/**
 * TRUST_PROXY: which hops in front of the server may say who the client is (X-Forwarded-For) and
 * how it asked (X-Forwarded-Proto, X-Forwarded-Host). Walking X-Forwarded-For from the right, each
 * trusted hop passes the question on to the address it names; the first hop not trusted is the
 * client. One rule built from this setting answers for Fastify (request.ip, .protocol, .host), the
 * early answers and so every rate limit, so no two parts of the server disagree about a caller.
 */
export type ProxyTrustSetting =
  | { kind: 'none' }
  /** Every hop: the left-most X-Forwarded-For entry is the client, whoever wrote it. */
  | { kind: 'all' }
  /** The n nearest hops, whatever their address: for a server reachable only through its proxies. */
  | { kind: 'hops'; hops: number }
  /** Hops from these addresses, ranges (CIDR) and named ranges only. */
  | { kind: 'addresses'; addresses: string[] };

/** Whether the hop `hop` away (0: the peer of the connection) at `address` is a trusted proxy; false: none is. */
export type ProxyTrust = false | ((address: string, hop: number) => boolean);

/** The names proxy-addr knows for groups of ranges. */
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];
const YES = ['true', 'yes', 'on'];
const NO = ['false', 'no', 'off'];

export class ProxyTrustError extends Error {}

/** One address, range or named range of a list, or why it is none of these. */
function checkAddress(entry: string): string | null {
  if (NAMED_RANGES.includes(entry)) return null;
  const slash = entry.indexOf('/');
  // proxy-addr also takes forms like "10" or "0x7f.1" as addresses; only plain notation is meant here.
  if (net.isIP(slash === -1 ? entry : entry.slice(0, slash)) === 0) return `"${entry}" is not an IP address`;
  try {
    proxyAddr.compile(entry);
    return null;
  } catch {
    return `"${entry}" is not a range like 10.0.0.0/8`;
  }
}

/** Reads the setting's text; throws ProxyTrustError with a message that says what is accepted. */
export function parseProxyTrust(text: string): ProxyTrustSetting {
  const value = text.trim().toLowerCase();
  if (YES.includes(value)) return { kind: 'all' };
  if (NO.includes(value)) return { kind: 'none' };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (!Number.isSafeInteger(hops)) throw new ProxyTrustError('must be a small number of proxies, like 1');
    return hops === 0 ? { kind: 'none' } : { kind: 'hops', hops };
  }
  const addresses = value
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const problem = addresses.length === 0 ? 'no address given' : addresses.map(checkAddress).find((p) => p !== null);
  if (problem) {
    throw new ProxyTrustError(
      `must be false, true, the number of proxies in front (1), or their addresses and ranges (127.0.0.1,10.0.0.0/8, loopback, uniquelocal): ${problem}`,
    );
  }
  return { kind: 'addresses', addresses };
}

/** The rule itself, built once and handed to everything that reads a caller's address, scheme or host. */
export function proxyTrust(setting: ProxyTrustSetting): ProxyTrust {
  switch (setting.kind) {
    case 'none':
      return false;
    case 'all':
      return () => true;
    case 'hops': {
      // Fastify refuses a bare hop count (it cannot check who the nearest hop is); given as a
      // function it is taken as it is, and docs/operations.md says when a count is safe.
      const { hops } = setting;
      return (_address, hop) => hop < hops;
    }
    case 'addresses':
      return proxyAddr.compile(setting.addresses);
  }
}
