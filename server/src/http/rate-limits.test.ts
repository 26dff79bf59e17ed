import { randomInt, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/test-app.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** A fresh client address per test, so runs sharing the Redis server never share a counter. */
const freshAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

beforeAll(async () => {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0 });
  try {
    await probe.connect();
    expect(await probe.ping()).toBe('PONG');
  } catch (err) {
    throw new Error(`These tests need Redis at ${REDIS_URL} (set TEST_REDIS_URL): ${(err as Error).message}`);
  } finally {
    probe.disconnect();
  }
});

describe('rate limits shared through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { REDIS_URL, RATE_LIMIT_GENERAL_PER_MINUTE: '6', RATE_LIMIT_SIGNIN_PER_ACCOUNT_PER_HOUR: '4' };
    [a, b] = await Promise.all([createTestApp({ env }), createTestApp({ env })]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('two API processes allow one address the limit once between them, not once each', async () => {
    const remoteAddress = freshAddress();
    const hit = (app: TestApp) => app.call({ method: 'GET', url: '/api/v1/healthcheck', remoteAddress }).then((r) => r.statusCode);
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push(await hit(a), await hit(b));
    expect(seen).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await hit(a)).toBe(429);
    const refused = await b.call({ method: 'GET', url: '/api/v1/healthcheck', remoteAddress });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ statusCode: 429, success: false, data: null });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect(await a.call({ method: 'GET', url: '/api/v1/healthcheck', remoteAddress: freshAddress() }).then((r) => r.statusCode)).toBe(200);
  });

  it("many addresses guessing one account's password are stopped, across processes; other accounts are not", async () => {
    const email = `victim-${randomUUID()}@example.com`;
    const guess = (app: TestApp, who = email) =>
      app.call({
        method: 'POST',
        url: '/api/v1/users/login',
        remoteAddress: freshAddress(),
        payload: { email: who.toUpperCase(), password: `guess-${randomUUID()}` },
      });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await guess(i % 2 ? a : b)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401]);
    const stopped = await guess(a);
    expect(stopped.statusCode).toBe(429);
    expect(stopped.message).toMatch(/^Too many requests, try again in \d+ s$/);
    expect((await guess(b)).statusCode).toBe(429);
    expect((await guess(a, `someone-else-${randomUUID()}@example.com`)).statusCode).toBe(401);
  });
});

describe('without Redis', () => {
  it('each process counts on its own, and the per-account sign-in limit still holds', async () => {
    const env = { RATE_LIMIT_GENERAL_PER_MINUTE: '3', RATE_LIMIT_SIGNIN_PER_ACCOUNT_PER_HOUR: '2' };
    const [a, b] = await Promise.all([createTestApp({ env }), createTestApp({ env })]);
    try {
      const remoteAddress = freshAddress();
      const hit = (app: TestApp) => app.call({ method: 'GET', url: '/api/v1/healthcheck', remoteAddress }).then((r) => r.statusCode);
      const seen = [];
      for (let i = 0; i < 3; i++) seen.push(await hit(a), await hit(b));
      expect(seen).toEqual([200, 200, 200, 200, 200, 200]);
      expect(await hit(a)).toBe(429);
      const email = `solo-${randomUUID()}@example.com`;
      const guess = () => a.call({ method: 'POST', url: '/api/v1/users/login', remoteAddress: freshAddress(), payload: { email, password: 'wrong-password' } });
      expect([(await guess()).statusCode, (await guess()).statusCode, (await guess()).statusCode]).toEqual([401, 401, 429]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
