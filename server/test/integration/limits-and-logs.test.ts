import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/test-app.js';

describe('limits', () => {
  it('rate-limits sign-in attempts with a 429 envelope and retry-after', async () => {
    const t = await createTestApp({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '3' } });
    try {
      const attempt = () => t.call({ method: 'POST', url: '/api/v1/users/login', payload: { email: 'who@example.com', password: 'not-this-one' } });
      for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
      const limited = await attempt();
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.json()).toMatchObject({ statusCode: 429, data: null, success: false });
      // Other calls are not held back by the sign-in limit.
      expect((await t.call({ method: 'GET', url: '/api/v1/videos/' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('refuses a JSON body over 1 MiB with a 413 envelope', async () => {
    const t = await createTestApp();
    try {
      const res = await t.call({
        method: 'POST',
        url: '/api/v1/users/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(1024 * 1024 + 10) }),
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ statusCode: 413, data: null, message: 'Request body is too large', success: false });
    } finally {
      await t.close();
    }
  });
});

describe('request logs', () => {
  it('carry a request id on every line and never a password, token or cookie', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const t = await createTestApp({ env: { LOG_LEVEL: 'info' }, logTo: sink });
    try {
      const password = 'very-secret-password-1';
      const u = await t.signUp({ password });
      const refreshed = await t.call({
        method: 'POST',
        url: '/api/v1/users/refresh-token',
        cookies: { refreshToken: u.refreshToken },
        headers: { origin: 'http://localhost', 'x-return-tokens': 'true' },
      });
      await t.call({ method: 'PATCH', url: '/api/v1/users/change-password', as: u, payload: { oldPassword: password, newPassword: 'another-secret-pass-2' } });
      await t.call({ method: 'POST', url: '/api/v1/users/login', payload: { email: u.email, password: 'wrong-secret-pass-3' } });
      await t.call({
        method: 'GET',
        url: '/api/v1/users/user/current',
        headers: { 'x-request-id': 'trace-me-123' },
        cookies: { accessToken: refreshed.data.accessToken },
      });

      const requestLines = lines.map((l) => JSON.parse(l)).filter((l) => l.req || l.res);
      // One line per request: sign-up (two), refresh, change-password, failed sign-in, current user.
      expect(requestLines.length).toBeGreaterThanOrEqual(6);
      for (const line of requestLines) expect(line.reqId).toEqual(expect.any(String));
      expect(requestLines.some((l) => l.reqId === 'trace-me-123')).toBe(true);
      const all = lines.join('\n');
      for (const secret of [
        password,
        'another-secret-pass-2',
        'wrong-secret-pass-3',
        u.accessToken,
        u.refreshToken,
        refreshed.data.accessToken,
        refreshed.data.refreshToken,
      ]) {
        expect(all.includes(secret), 'a secret reached the log').toBe(false);
      }
    } finally {
      await t.close();
    }
  });
});
