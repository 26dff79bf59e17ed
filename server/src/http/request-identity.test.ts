import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { type ProxyTrust, parseProxyTrust, proxyTrust } from '../proxy-trust.js';
import { requestIdFor, requestIdentity } from './request-identity.js';

/** Sends a GET with exactly these headers (Host included, which fetch will not set) and reads the JSON. */
function ask(port: number, headers: Record<string, string>): Promise<{ fastify: unknown; ours: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/who', headers }, (res) => {
      let body = '';
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve(JSON.parse(body)));
    });
    req.on('error', reject);
    req.end();
  });
}

const CASES: Record<string, string>[] = [
  {},
  { host: 'videos.example:8443' },
  { 'x-forwarded-for': '203.0.113.7' },
  { 'x-forwarded-for': '203.0.113.7, 198.51.100.2 ,10.0.0.1' },
  { 'x-forwarded-proto': 'https' },
  { 'x-forwarded-proto': 'http, https' },
  { 'x-forwarded-proto': '' },
  { 'x-forwarded-host': 'a.example' },
  { 'x-forwarded-host': 'a.example, b.example', host: 'inner:7000' },
  { 'x-forwarded-host': '', 'x-forwarded-proto': ' https ' },
];

/**
 * Each form TRUST_PROXY takes, as Fastify is given it (its own form where it has one: a hop count it
 * refuses, so it gets the rule as a function like the app does), and what a chain of three
 * X-Forwarded-For entries then makes the caller, the connection coming from 127.0.0.1.
 */
const FORMS: { setting: string; fastify: (rule: ProxyTrust) => ProxyTrust | string | boolean; chainIp: string; forwardedProto: boolean }[] = [
  { setting: 'false', fastify: () => false, chainIp: '127.0.0.1', forwardedProto: false },
  { setting: 'true', fastify: () => true, chainIp: '203.0.113.7', forwardedProto: true },
  { setting: '1', fastify: (rule) => rule, chainIp: '10.0.0.1', forwardedProto: true },
  { setting: '2', fastify: (rule) => rule, chainIp: '198.51.100.2', forwardedProto: true },
  { setting: '127.0.0.1', fastify: () => '127.0.0.1', chainIp: '10.0.0.1', forwardedProto: true },
  { setting: 'loopback, 10.0.0.0/8', fastify: () => 'loopback,10.0.0.0/8', chainIp: '198.51.100.2', forwardedProto: true },
  // The connection's peer is not a trusted proxy: nothing it forwards counts.
  { setting: '10.0.0.0/8', fastify: () => '10.0.0.0/8', chainIp: '127.0.0.1', forwardedProto: false },
  { setting: 'uniquelocal', fastify: () => 'uniquelocal', chainIp: '127.0.0.1', forwardedProto: false },
];

describe('the caller, scheme and host read from the raw request', () => {
  for (const form of FORMS) {
    it(`are what Fastify reads, with TRUST_PROXY=${form.setting}`, async () => {
      const trust = proxyTrust(parseProxyTrust(form.setting));
      const app = Fastify({ trustProxy: form.fastify(trust) });
      app.get('/who', (request) => ({
        fastify: { ip: request.ip, protocol: request.protocol, host: request.host },
        ours: requestIdentity(request.raw, trust),
      }));
      await app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const port = (app.server.address() as AddressInfo).port;
        const own = `127.0.0.1:${port}`;
        for (const headers of CASES) {
          const { fastify, ours } = await ask(port, { host: own, ...headers });
          expect(ours, JSON.stringify(headers)).toEqual(fastify);
        }
        const chain = await ask(port, {
          host: own,
          'x-forwarded-for': '203.0.113.7, 198.51.100.2 ,10.0.0.1',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'videos.example',
        });
        expect(chain.ours).toEqual({
          ip: form.chainIp,
          protocol: form.forwardedProto ? 'https' : 'http',
          host: form.forwardedProto ? 'videos.example' : own,
        });
      } finally {
        await app.close();
      }
    });
  }
});

describe('the request id', () => {
  it('is the one a proxy gave when well-formed, else a new one', () => {
    const raw = (id?: string) => ({ headers: id === undefined ? {} : { 'x-request-id': id } }) as http.IncomingMessage;
    expect(requestIdFor(raw('edge-42_a'))).toBe('edge-42_a');
    for (const bad of [undefined, '', 'has space', 'x'.repeat(65), '<script>']) expect(requestIdFor(raw(bad))).toMatch(/^[\w-]{16}$/);
  });
});
