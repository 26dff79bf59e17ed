import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type RunningNginx, startNginx } from '../support/nginx.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** The documented sign-in limit per client address: RATE_LIMIT_AUTH_PER_MINUTE's default. */
const SIGN_IN_LIMIT = loadConfig({}).rateLimits.authPerMinute;

/** Two clients on this machine: loopback is all of 127.0.0.0/8, so each connects from an address of its own. */
const ALICE = '127.0.0.2';
const BOB = '127.0.0.3';

/** A different made-up X-Forwarded-For for each attempt: single addresses and whole chains. */
const madeUp = (i: number) => (i % 2 ? `198.51.100.${i}` : `203.0.113.${i}, 10.0.0.${i}`);

interface Answer {
  status: number;
  /** x-ratelimit-remaining: what is left of the limit this attempt was counted against. */
  remaining: number | null;
  body: { statusCode?: number; success?: boolean; data?: unknown };
}

/** A sign-in with a wrong password sent from the address `from`, claiming to be forwarded for `forwardedFor`. */
function signIn(port: number, from: string, forwardedFor: string): Promise<Answer> {
  const body = JSON.stringify({ email: 'someone@example.com', password: 'not-the-password' });
  const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'x-forwarded-for': forwardedFor };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, localAddress: from, method: 'POST', path: '/api/v1/users/login', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        const remaining = res.headers['x-ratelimit-remaining'];
        resolve({ status: res.statusCode ?? 0, remaining: remaining === undefined ? null : Number(remaining), body: JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The app on 127.0.0.1 with this TRUST_PROXY and the documented sign-in limit, and nginx in front of it. */
function behindNginx(trustProxy: string, forwardedFor: string) {
  const s = {} as { t: TestApp; nginx: RunningNginx; appPort: number };
  beforeAll(async () => {
    s.t = await createTestApp({ env: { TRUST_PROXY: trustProxy, RATE_LIMIT_AUTH_PER_MINUTE: String(SIGN_IN_LIMIT) } });
    await s.t.app.listen({ port: 0, host: '127.0.0.1' });
    s.appPort = (s.t.app.server.address() as AddressInfo).port;
    s.nginx = await startNginx(s.appPort, forwardedFor);
  });
  afterAll(async () => {
    await s.nginx?.stop();
    await s.t?.close();
  });
  return s;
}

const SETUPS = [
  { trustProxy: '1', forwardedFor: '$proxy_add_x_forwarded_for' },
  { trustProxy: '127.0.0.1', forwardedFor: '$proxy_add_x_forwarded_for' },
  // The edge configuration docs/operations.md recommends: nginx replaces what the client sent.
  { trustProxy: '1', forwardedFor: '$remote_addr' },
];

for (const { trustProxy, forwardedFor } of SETUPS) {
  describe(`TRUST_PROXY=${trustProxy} behind nginx setting X-Forwarded-For to ${forwardedFor}`, () => {
    const s = behindNginx(trustProxy, forwardedFor);

    it('counts every made-up X-Forwarded-For of one client against one sign-in limit, and another client apart', async () => {
      for (let i = 1; i <= SIGN_IN_LIMIT; i++) {
        const attempt = await signIn(s.nginx.port, ALICE, madeUp(i));
        expect(attempt.status).toBe(401);
        expect(attempt.remaining, madeUp(i)).toBe(SIGN_IN_LIMIT - i);
      }
      // Past the limit, whatever the client claims to be: another address, the other client, the proxy.
      for (const claim of [madeUp(SIGN_IN_LIMIT + 1), BOB, '127.0.0.1']) {
        const refused = await signIn(s.nginx.port, ALICE, claim);
        expect(refused.status, claim).toBe(429);
        expect(refused.body).toMatchObject({ statusCode: 429, success: false, data: null });
      }
      // The address counted is the one nginx saw the client connect from: the other client starts afresh.
      expect(await signIn(s.nginx.port, BOB, ALICE)).toMatchObject({ status: 401, remaining: SIGN_IN_LIMIT - 1 });
      expect(await signIn(s.nginx.port, BOB, madeUp(1))).toMatchObject({ status: 401, remaining: SIGN_IN_LIMIT - 2 });
    });

    if (trustProxy === '127.0.0.1') {
      it('counts a client that reaches the server directly by its own address: only the proxy is trusted', async () => {
        expect((await signIn(s.appPort, ALICE, madeUp(99))).status).toBe(429);
        expect(await signIn(s.appPort, BOB, madeUp(98))).toMatchObject({ status: 401, remaining: SIGN_IN_LIMIT - 3 });
      });
    } else {
      it('trusts whoever connects directly to one hop: why the server must be reachable only through the proxy', async () => {
        expect(await signIn(s.appPort, ALICE, madeUp(99))).toMatchObject({ status: 401, remaining: SIGN_IN_LIMIT - 1 });
      });
    }
  });
}

describe('TRUST_PROXY=true behind nginx appending to X-Forwarded-For', () => {
  const s = behindNginx('true', '$proxy_add_x_forwarded_for');

  it('takes the left-most address, which the client wrote: each made-up one is a fresh limit', async () => {
    for (let i = 1; i <= SIGN_IN_LIMIT + 2; i++) {
      expect(await signIn(s.nginx.port, ALICE, madeUp(i))).toMatchObject({ status: 401, remaining: SIGN_IN_LIMIT - 1 });
    }
  });
});

describe('the start of a server that trusts every hop', () => {
  async function warningsAt(trustProxy: string): Promise<string[]> {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const t = await createTestApp({ env: { TRUST_PROXY: trustProxy, LOG_LEVEL: 'warn' }, logTo: sink });
    await t.close();
    return lines.map((l) => JSON.parse(l) as { level: number; msg: string }).flatMap((l) => (l.level === 40 && l.msg.includes('TRUST_PROXY') ? [l.msg] : []));
  }

  it('logs one warning line that says what to set instead', async () => {
    expect(await warningsAt('true')).toEqual([
      'TRUST_PROXY=true trusts every hop: a client can choose its own address (X-Forwarded-For) and so its rate limits; set TRUST_PROXY=1 or the proxy address',
    ]);
    expect(await warningsAt('1')).toEqual([]);
    expect(await warningsAt('127.0.0.1')).toEqual([]);
  });
});
