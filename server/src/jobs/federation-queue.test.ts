import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Temporal } from '@js-temporal/polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, openDatabase } from '../db/client.js';
import { FederationQueue } from './federation-queue.js';
import { LocalQueue } from './local-queue.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('the federation queue on the job table', () => {
  let dir: string;
  let handle: DbHandle;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-fedqueue-'));
    handle = await openDatabase({ database: { kind: 'sqlite', file: path.join(dir, 'site.db') } });
  });
  afterAll(async () => {
    await handle.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function started(tuning: { backoffMs?: number } = {}) {
    await handle.db.deleteFrom('jobs').execute();
    const jobs = new LocalQueue({ db: handle.db, dialect: handle.dialect, logger: silent, pollIntervalMs: 20, ...tuning });
    const federation = new FederationQueue(jobs, { maxAttempts: 3 });
    await jobs.start(federation.handlers(), { concurrency: 1 });
    return { jobs, federation };
  }

  it('delivers an enqueued message, whole, to the listener', async () => {
    const { jobs, federation } = await started();
    const got: unknown[] = [];
    const abort = new AbortController();
    const listening = federation.listen((m) => void got.push(m), { signal: abort.signal });
    await federation.enqueue({ type: 'outbox', inbox: 'https://peer.test/inbox', activity: { type: 'Follow' } });
    await federation.enqueueMany([{ n: 1 }, { n: 2 }]);
    await waitFor('three messages', () => got.length === 3);
    expect(got).toContainEqual({ type: 'outbox', inbox: 'https://peer.test/inbox', activity: { type: 'Follow' } });
    expect(got).toContainEqual({ n: 2 });
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
    const rows = await handle.db.selectFrom('jobs').select(['status', 'attempts']).execute();
    expect(rows.every((r) => r.status !== 'failed')).toBe(true);
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
