import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Temporal } from '@js-temporal/polyfill';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, openDatabase } from '../db/client.js';
import { BullmqQueue } from './bullmq-queue.js';
import { FederationMessagesRepository } from './federation-messages.repository.js';
import { FederationQueue } from './federation-queue.js';
import type { JobQueue } from './job-types.js';
import { LocalQueue } from './local-queue.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await sleep(20);
  }
}

type Tuning = { backoffMs?: number };

/** Jobs on the job table, or on BullMQ in Redis, as a scaled site runs them; the messages in the site's database either way. */
async function backend(kind: 'table' | 'bullmq') {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-fedqueue-'));
  const handle: DbHandle = await openDatabase({ database: { kind: 'sqlite', file: path.join(dir, 'site.db') } });
  const run = `reelhouse-test-fed-${randomBytes(5).toString('hex')}`;
  let n = 0;
  let last: JobQueue | null = null;
  return {
    db: handle.db,
    make: async (tuning: Tuning): Promise<JobQueue> => {
      await handle.db.deleteFrom('jobs').execute();
      await handle.db.deleteFrom('federation_messages').execute();
      last =
        kind === 'table'
          ? new LocalQueue({ db: handle.db, dialect: handle.dialect, logger: silent, pollIntervalMs: 20, ...tuning })
          : new BullmqQueue({ redisUrl: REDIS_URL, logger: silent, prefix: `${run}-${++n}`, ...tuning });
      return last;
    },
    failedJobs: async () => (await last!.overview()).failed.length,
    close: async () => {
      await handle.close();
      await fs.rm(dir, { recursive: true, force: true });
      if (kind !== 'bullmq') return;
      const redis = new Redis(REDIS_URL);
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${run}-*`, 'COUNT', 1000);
        if (keys.length) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      await redis.quit();
    },
  };
}

describe.each([
  ['the job table', 'table'],
  ['BullMQ on Redis', 'bullmq'],
] as const)('the federation queue on %s', (_label, kind) => {
  let store: Awaited<ReturnType<typeof backend>>;

  beforeAll(async () => {
    store = await backend(kind);
  });
  afterAll(() => store?.close());

  async function started(tuning: Tuning = {}) {
    const jobs = await store.make(tuning);
    const federation = new FederationQueue(jobs, new FederationMessagesRepository(store.db), { maxAttempts: 3 });
    await jobs.start(federation.handlers(), { concurrency: 1 });
    return { jobs, federation };
  }
  const messagesLeft = async () => (await store.db.selectFrom('federation_messages').select('id').execute()).length;

  it('delivers an enqueued message, whole, to the listener, and its job carries only an id', async () => {
    const { jobs, federation } = await started();
    const got: unknown[] = [];
    const abort = new AbortController();
    const listening = federation.listen((m) => void got.push(m), { signal: abort.signal });
    const delivery = { type: 'outbox', inbox: 'https://peer.test/inbox', keys: [{ privateKey: { kty: 'RSA', d: 'secret' } }] };
    await federation.enqueue(delivery);
    await federation.enqueueMany([{ n: 1 }, { n: 2 }]);
    await waitFor('three messages', () => got.length === 3);
    expect(got).toContainEqual(delivery);
    expect(got).toContainEqual({ n: 2 });
    if (kind === 'table') {
      const payloads = await store.db.selectFrom('jobs').select('payload').execute();
      expect(payloads.map((p) => JSON.parse(p.payload))).toEqual([
        { messageId: expect.any(String) },
        { messageId: expect.any(String) },
        { messageId: expect.any(String) },
      ]);
    }
    await sleep(50);
    expect(await messagesLeft()).toBe(0);
    abort.abort();
    await listening;
    await jobs.close();
  });

  it('keeps a delayed message back for its delay', async () => {
    const { jobs, federation } = await started();
    const got: number[] = [];
    void federation.listen(() => void got.push(Date.now()));
    const sent = Date.now();
    await federation.enqueue({ later: true }, { delay: Temporal.Duration.from({ milliseconds: 400 }) });
    await waitFor('the delayed message', () => got.length === 1);
    expect(got[0]! - sent).toBeGreaterThanOrEqual(380);
    await jobs.close();
  });

  it('retries a message whose handling failed, after a backoff', async () => {
    const { jobs, federation } = await started({ backoffMs: 100 });
    const attempts: number[] = [];
    void federation.listen(() => {
      attempts.push(Date.now());
      if (attempts.length < 3) throw new Error('remote server away');
    });
    await federation.enqueue({ flaky: true });
    await waitFor('the third attempt', () => attempts.length === 3);
    // 100 ms after the first failure, 200 ms after the second.
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(90);
    expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(190);
    await sleep(100);
    expect(await store.failedJobs()).toBe(0);
    expect(await messagesLeft()).toBe(0);
    await jobs.close();
  });

  it('gives a message up after its last attempt, and removes it', async () => {
    const { jobs, federation } = await started({ backoffMs: 20 });
    let attempts = 0;
    void federation.listen(() => {
      attempts++;
      throw new Error('gone for good');
    });
    await federation.enqueue({ doomed: true });
    await waitFor('the failed job', () => attempts === 3);
    await sleep(100);
    expect(await store.failedJobs()).toBe(1);
    expect(await messagesLeft()).toBe(0);
    await jobs.close();
  });

  it('sends a message back to the queue while nothing listens, and delivers it once something does', async () => {
    const { jobs, federation } = await started({ backoffMs: 100 });
    await federation.enqueue({ early: true });
    await sleep(150);
    const got: unknown[] = [];
    void federation.listen((m) => void got.push(m));
    await waitFor('the message', () => got.length === 1);
    expect(got).toEqual([{ early: true }]);
    await jobs.close();
  });
});
