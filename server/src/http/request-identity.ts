import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { newId } from '../lib/ids.js';
import type { ProxyTrust } from '../proxy-trust.js';

/**
 * Who asked and how, read from the raw request exactly as Fastify reads it (request.ip, .protocol
 * and .host) under the same TRUST_PROXY rule: the early answers are served before Fastify makes its
 * request object, and must see the same caller, scheme and host it would. A test holds the two side
 * by side for each form of the setting.
 */
export interface RequestIdentity {
  ip: string | undefined;
  protocol: 'http' | 'https' | string;
  host: string;
}

/** The last value of a header a chain of proxies may have sent more than once. */
function lastEntry(value: string): string {
  const at = value.lastIndexOf(',');
  return at === -1 ? value.trim() : value.slice(at + 1).trim();
}

const header = (raw: IncomingMessage, name: string): string | undefined => {
  const value = raw.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

export function requestIdentity(raw: IncomingMessage, trust: ProxyTrust): RequestIdentity {
  const socket = raw.socket as IncomingMessage['socket'] & { encrypted?: boolean };
  const ownHost = raw.headers.host ?? '';
  const ownProtocol = socket.encrypted ? 'https' : 'http';
  if (!trust) return { ip: socket.remoteAddress, protocol: ownProtocol, host: ownHost };
  const addresses = proxyAddr.all(raw, trust);
  // The scheme and host a proxy passes on count only when the connection comes from a trusted one.
  const peerTrusted = trust(socket.remoteAddress as string, 0);
  const forwardedProto = peerTrusted ? header(raw, 'x-forwarded-proto') : undefined;
  const forwardedHost = peerTrusted ? header(raw, 'x-forwarded-host') : undefined;
  return {
    ip: addresses[addresses.length - 1],
    protocol: forwardedProto ? lastEntry(forwardedProto) : ownProtocol,
    host: forwardedHost ? lastEntry(forwardedHost) : ownHost,
  };
}

const GIVEN_ID = /^[\w-]{1,64}$/;

/** A request's id: the one a proxy in front gave it (X-Request-Id), when well-formed, else a new one. */
export function requestIdFor(raw: IncomingMessage): string {
  const given = raw.headers['x-request-id'];
  return typeof given === 'string' && GIVEN_ID.test(given) ? given : newId();
}
