import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
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

describe('the caller, scheme and host read from the raw request', () => {
  for (const trustProxy of [false, true]) {
    it(`are what Fastify reads, with trustProxy ${trustProxy}`, async () => {
      const app = Fastify({ trustProxy });
      app.get('/who', (request) => ({
        fastify: { ip: request.ip, protocol: request.protocol, host: request.host },
        ours: requestIdentity(request.raw, trustProxy),
      }));
      await app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const port = (app.server.address() as AddressInfo).port;
        for (const headers of CASES) {
          const { fastify, ours } = await ask(port, { host: `127.0.0.1:${port}`, ...headers });
          expect(ours, JSON.stringify(headers)).toEqual(fastify);
        }
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
