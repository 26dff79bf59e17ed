import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../../../test/support/s3-server.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { tusCreate, tusOffset, tusPatch } from '../../../test/support/tus-client.js';
import { RedisLocker } from './redis-locker.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MiB = 1024 * 1024;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * Scaled mode: two API processes (here two apps over one database, one bucket and one Redis) serve
 * the pieces of one upload, whichever the load balancer picks.
 */
describe('tus uploads across API processes (S3 and Redis)', () => {
  let s3: TestS3Server;
  let a: TestApp;
  let b: TestApp;
  let baseA: string;
  let baseB: string;
  let owner: SignedIn;

  beforeAll(async () => {
    // Fails loudly without Redis: this is what the test is about.
    const probe = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
    await probe.connect();
    await probe.quit();
    s3 = await startS3Server();
    a = await createTestApp({ env: { ...s3.env, REDIS_URL } });
    // The second process: the first one's database (its SQLite file, or its PostgreSQL database).
    const db = a.ctx.config.database;
    b = await createTestApp({ env: { ...s3.env, REDIS_URL, DATA_DIR: a.dataDir, ...(db.kind === 'postgres' ? { DATABASE_URL: db.url } : {}) } });
    baseA = await a.app.listen({ port: 0, host: '127.0.0.1' });
    baseB = await b.app.listen({ port: 0, host: '127.0.0.1' });
    owner = await a.signUp();
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await s3?.stop();
  });

  it('continues on one process an upload started and cut on the other, and finishes intact', async () => {
    const data = randomBytes(20 * MiB + 777);
    const location = (await tusCreate(baseA, owner, data.length)).headers.location!;
    const id = location.split('/').pop()!;
    await tusPatch(baseB, owner, location, 0, data, 9 * MiB);
    const kept = await tusOffset(baseA, owner, location);
    expect(kept).toBeGreaterThan(0);
    await tusPatch(baseA, owner, location, kept, data.subarray(kept), 6 * MiB);
    const kept2 = await tusOffset(baseB, owner, location);
    expect(kept2).toBeGreaterThan(kept);
    const done = await tusPatch(baseB, owner, location, kept2, data.subarray(kept2));
    expect(done.status).toBe(204);
    expect(await tusOffset(baseA, owner, location)).toBe(data.length);
    const copy = await a.services.uploadStore.localCopy(id, a.ctx.tmpDir);
    expect(sha256(await fs.readFile(copy.path))).toBe(sha256(data));
    await fs.rm(copy.path);
  }, 120_000);

  it('gives the lock to a second holder only after asking the first to let go', async () => {
    const locker = a.services.uploadStore.locker as RedisLocker;
    const other = b.services.uploadStore.locker as RedisLocker;
    const id = `uploads/lock-test-${Date.now()}`;
    const first = locker.newLock(id);
    let asked = 0;
    await first.lock(new AbortController().signal, async () => {
      asked++;
      await first.unlock();
    });
    const second = other.newLock(id);
    await second.lock(new AbortController().signal, () => undefined);
    expect(asked).toBeGreaterThanOrEqual(1);
    // A third that nobody releases for gives up rather than waiting forever.
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 300);
    await expect(locker.newLock(id).lock(stop.signal, () => undefined)).rejects.toMatchObject({ status_code: 500 });
    await second.unlock();
  });
});
