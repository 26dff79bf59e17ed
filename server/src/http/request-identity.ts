import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { newId } from '../lib/ids.js';

/**
 * Who asked and how, read from the raw request exactly as Fastify reads it (request.ip, .protocol
 * and .host under a boolean trustProxy): the early answers are served before Fastify makes its
 * request object, and must see the same caller, scheme and host it would. A test holds the two
 * side by side.
 */
export interface RequestIdentity {
  ip: string | undefined;
  protocol: 'http' | 'https' | string;
  host: string;
}

const trustAll = () => true;

/** The last value of a header a chain of proxies may have sent more than once. */
function lastEntry(value: string): string {
  const at = value.lastIndexOf(',');
  return at === -1 ? value.trim() : value.slice(at + 1).trim();
}

const header = (raw: IncomingMessage, name: string): string | undefined => {
  const value = raw.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

export function requestIdentity(raw: IncomingMessage, trustProxy: boolean): RequestIdentity {
  const socket = raw.socket as IncomingMessage['socket'] & { encrypted?: boolean };
  const ownHost = raw.headers.host ?? '';
  const ownProtocol = socket.encrypted ? 'https' : 'http';
  if (!trustProxy) return { ip: socket.remoteAddress, protocol: ownProtocol, host: ownHost };
  const addresses = proxyAddr.all(raw, trustAll);
  const forwardedProto = header(raw, 'x-forwarded-proto');
  const forwardedHost = header(raw, 'x-forwarded-host');
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
