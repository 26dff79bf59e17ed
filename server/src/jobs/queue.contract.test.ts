import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPgDatabase } from '../../test/support/databases.js';
import { type DbHandle, openDatabase } from '../db/client.js';
import { BullmqQueue } from './bullmq-queue.js';
import { createQueue } from './create-queue.js';
import type { JobHandlers, JobQueue } from './job-types.js';
import { LocalQueue } from './local-queue.js';
import type { JobSettledEvent, QueueTuning } from './queue-options.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** One store of jobs (a database or a Redis prefix) and consumers on it. */
interface Backend {
  /** A new producer/consumer on the current store. */
  make(tuning?: QueueTuning): JobQueue;
  /** Starts a clean store for the next test. */
  reset(): Promise<void>;
  /** Settings for a consumer in another process (test/support/queue-consumer.ts). */
  childEnv(): Record<string, string>;
  /** Where the backend records a job's final state, for the checks only it can make. */
  finalState?(): Promise<{ status: string; attempts: number; last_error: string | null }[]>;
  close(): Promise<void>;
}

function localBackend(open: () => Promise<{ handles: DbHandle[]; env: Record<string, string>; drop(): Promise<void> }>) {
  return async (): Promise<Backend> => {
    const { handles, env, drop } = await open();
    let n = 0;
    return {
      // Consumers alternate between two connections, as two processes would.
      make: (tuning = {}) => {
        const h = handles[n++ % handles.length]!;
        return new LocalQueue({ db: h.db, dialect: h.dialect, logger: silent, pollIntervalMs: 50, ...tuning });
      },
      reset: async () => {
        await handles[0]!.db.deleteFrom('jobs').execute();
      },
      childEnv: () => env,
      finalState: () => handles[0]!.db.selectFrom('jobs').select(['status', 'attempts', 'last_error']).orderBy('id').execute(),
      close: async () => {
        for (const h of handles) await h.close();
        await drop();
      },
    };
  };
}

const backends: [string, () => Promise<Backend>][] = [
  [
    'local on SQLite',
    localBackend(async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-queue-'));
      const file = path.join(dir, 'jobs.db');
      const first = await openDatabase({ database: { kind: 'sqlite', file } });
      const second = await openDatabase({ database: { kind: 'sqlite', file } }, { migrate: false });
      return {
        handles: [first, second],
        env: { QUEUE_SQLITE_FILE: file },
        drop: () => fs.rm(dir, { recursive: true, force: true }),
      };
    }),
  ],
  [
    'local on PostgreSQL',
    localBackend(async () => {
      const pg = await createPgDatabase();
      const first = await openDatabase({ database: { kind: 'postgres', url: pg.url } });
      const second = await openDatabase({ database: { kind: 'postgres', url: pg.url } }, { migrate: false });
      return { handles: [first, second], env: { QUEUE_DATABASE_URL: pg.url }, drop: () => pg.drop() };
    }),
  ],
  [
    'BullMQ on Redis',
    async (): Promise<Backend> => {
      const run = `reelhouse-test-${randomBytes(5).toString('hex')}`;
      let n = 0;
      let prefix = `${run}-${n}`;
      return {
        make: (tuning = {}) => createQueue({ redisUrl: REDIS_URL, db: null as never, dialect: 'sqlite', logger: silent, prefix, ...tuning }),
        reset: async () => {
          prefix = `${run}-${++n}`;
        },
        childEnv: () => ({ QUEUE_REDIS_URL: REDIS_URL, QUEUE_PREFIX: prefix }),
        close: async () => {
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
    },
  ],
];

describe.each(backends)('JobQueue contract: %s', (label, makeBackend) => {
  let backend: Backend;
  let open: JobQueue[] = [];
  let settled: JobSettledEvent[] = [];
  const onSettled = (e: JobSettledEvent) => settled.push(e);
  const queue = (tuning: QueueTuning = {}) => {
    const q = backend.make({ onSettled, ...tuning });
    open.push(q);
    return q;
  };
  const outcomes = (outcome: JobSettledEvent['outcome']) => settled.filter((e) => e.outcome === outcome);

  beforeAll(async () => {
    backend = await makeBackend();
  });
  afterEach(async () => {
    await Promise.all(open.map((q) => q.close()));
    open = [];
    settled = [];
    await backend.reset();
  });
  afterAll(async () => {
    await backend?.close();
  });

  it('picks the adapter from the settings', () => {
    const q = queue();
    expect(q).toBeInstanceOf(label.startsWith('BullMQ') ? BullmqQueue : LocalQueue);
  });

  it('runs an enqueued job with its payload, once', async () => {
    const q = queue();
    const seen: unknown[] = [];
    await q.start({ 'video.playable': async (p, ctx) => void seen.push({ ...p, attempt: ctx.attempt }) }, { concurrency: 2 });
    await q.enqueue('video.playable', { videoId: 'v1' });
    await waitFor('the job to finish', () => outcomes('done').length === 1);
    await sleep(200);
    expect(seen).toEqual([{ videoId: 'v1', attempt: 1 }]);
    expect(settled).toMatchObject([{ name: 'video.playable', payload: { videoId: 'v1' }, outcome: 'done' }]);
    if (backend.finalState) expect(await backend.finalState()).toMatchObject([{ status: 'done', attempts: 1 }]);
  });

  it('runs the most urgent job first (lower priority number), and in order within a priority', async () => {
    const producer = queue();
    await producer.enqueue('video.ladder', { videoId: 'ladder' });
    await producer.enqueue('video.storyboard', { videoId: 'storyboard' });
    await producer.enqueue('video.ladder', { videoId: 'urgent-ladder' }, { priority: 1 });
    await producer.enqueue('video.storyboard', { videoId: 'late-storyboard' }, { priority: 9 });
    await producer.enqueue('video.playable', { videoId: 'playable' });
    const order: string[] = [];
    const h = (tag: string) => async (p: { videoId?: string }) => void order.push(p.videoId ?? tag);
    const consumer = queue();
    await consumer.start({ 'video.ladder': h('ladder'), 'video.storyboard': h('storyboard'), 'video.playable': h('playable') }, { concurrency: 1 });
    await waitFor('all five jobs', () => outcomes('done').length === 5);
    // The playable job has a lane of its own; within the background lane, priority then age.
    expect(order.filter((id) => id !== 'playable')).toEqual(['urgent-ladder', 'storyboard', 'ladder', 'late-storyboard']);
    expect(order).toContain('playable');
  });

  it('starts a playable job while a ladder holds the only background slot', async () => {
    const q = queue();
    let releaseLadder!: () => void;
    const ladderBlocked = new Promise<void>((r) => (releaseLadder = r));
    const events: string[] = [];
    await q.start(
      {
        'video.ladder': async () => {
          events.push('ladder started');
          await ladderBlocked;
          events.push('ladder done');
        },
        'video.storyboard': async () => void events.push('storyboard'),
        'video.playable': async () => void events.push('playable'),
        'video.live': async () => void events.push('live'),
      },
      { concurrency: { playable: 1, live: 1, background: 1 } },
    );
    await q.enqueue('video.ladder', { videoId: 'long' });
    await waitFor('the ladder to start', () => events.includes('ladder started'));
    await q.enqueue('video.storyboard', { videoId: 'waits' });
    await q.enqueue('video.playable', { videoId: 'quick' });
    await q.enqueue('video.live', { videoId: 'live' });
    await waitFor('the playable and live jobs', () => events.includes('playable') && events.includes('live'));
    // Both ran while the ladder was still running; the storyboard waits for the background slot.
    expect(events).not.toContain('ladder done');
    expect(events).not.toContain('storyboard');
    releaseLadder();
    await waitFor('the storyboard after the ladder', () => events.includes('storyboard'));
    expect(events.indexOf('storyboard')).toBeGreaterThan(events.indexOf('ladder done'));
  });

  it('takes jobs in fair order between uploaders', async () => {
    const producer = queue();
    for (let i = 1; i <= 5; i++) await producer.enqueue('video.playable', { videoId: `busy-${i}` }, { fairKey: 'busy' });
    await producer.enqueue('video.playable', { videoId: 'other-1' }, { fairKey: 'other' });
    await producer.enqueue('video.playable', { videoId: 'third-1' }, { fairKey: 'third' });
    await producer.enqueue('video.playable', { videoId: 'other-2' }, { fairKey: 'other' });
    const order: string[] = [];
    const consumer = queue();
    await consumer.start({ 'video.playable': async (p) => void order.push(p.videoId) }, { concurrency: 1 });
    await waitFor('all eight jobs', () => outcomes('done').length === 8);
    // One of each uploader's in turn: the busy uploader's five do not hold the others back.
    expect(order).toEqual(['busy-1', 'other-1', 'third-1', 'busy-2', 'other-2', 'busy-3', 'busy-4', 'busy-5']);
  });

  it('waits for a delayed job', async () => {
    const q = queue();
    let ranAt = 0;
    await q.start({ 'video.playable': async () => void (ranAt = Date.now()) }, { concurrency: 1 });
    const t0 = Date.now();
    await q.enqueue('video.playable', { videoId: 'later' }, { delayMs: 600 });
    await waitFor('the delayed job', () => ranAt > 0);
    expect(ranAt - t0).toBeGreaterThanOrEqual(550);
  });

  it('retries a failed job with exponential backoff until it succeeds', async () => {
    const q = queue({ backoffMs: 300 });
    const calls: { attempt: number; at: number }[] = [];
    await q.start(
      {
        'video.storyboard': async (_p, ctx) => {
          calls.push({ attempt: ctx.attempt, at: Date.now() });
          if (ctx.attempt < 3) throw new Error(`ffmpeg exited with code 1 (attempt ${ctx.attempt})`);
        },
      },
      { concurrency: 1 },
    );
    await q.enqueue('video.storyboard', { videoId: 'flaky' }, { maxAttempts: 5 });
    await waitFor('success on the third attempt', () => outcomes('done').length === 1);
    expect(calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(280);
    expect(calls[2]!.at - calls[1]!.at).toBeGreaterThanOrEqual(580);
    expect(outcomes('retry').map((e) => e.error)).toEqual(['ffmpeg exited with code 1 (attempt 1)', 'ffmpeg exited with code 1 (attempt 2)']);
    if (backend.finalState) expect(await backend.finalState()).toMatchObject([{ status: 'done', attempts: 3 }]);
  });

  it('gives up after the last attempt', async () => {
    const q = queue({ backoffMs: 100 });
    let calls = 0;
    await q.start(
      {
        'video.ladder': async () => {
          calls++;
          throw new Error('unsupported pixel format');
        },
      },
      { concurrency: 1 },
    );
    await q.enqueue('video.ladder', { videoId: 'broken' }, { maxAttempts: 2 });
    await waitFor('the final failure', () => outcomes('failed').length === 1);
    await sleep(600);
    expect(calls).toBe(2);
    expect(outcomes('failed')).toMatchObject([{ payload: { videoId: 'broken' }, error: 'unsupported pixel format' }]);
    expect(outcomes('done')).toHaveLength(0);
    if (backend.finalState) {
      expect(await backend.finalState()).toMatchObject([{ status: 'failed', attempts: 2, last_error: 'unsupported pixel format' }]);
    }
  });

  it('shows depth per lane, running and failed jobs, and sends a failed job back to its lane', async () => {
    const q = queue();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let ladderCalls = 0;
    await q.start(
      {
        'video.ladder': async () => {
          if (++ladderCalls === 1) throw new Error('broken source');
        },
        'video.storyboard': async () => {
          await held;
        },
      },
      { concurrency: 1 },
    );
    await q.enqueue('video.ladder', { videoId: 'bad' }, { maxAttempts: 1 });
    await waitFor('the failure', () => outcomes('failed').length === 1);
    await q.enqueue('video.storyboard', { videoId: 'slow' });
    await q.enqueue('video.playable', { videoId: 'later' }, { delayMs: 60_000 });
    await waitFor('the storyboard to run', async () => (await q.overview()).running.length === 1);
    const o = await q.overview();
    expect(o.backend).toBe(label.startsWith('BullMQ') ? 'redis' : 'database');
    expect(o.lanes.background).toEqual({ waiting: 0, delayed: 0, running: 1, failed: 1 });
    expect(o.lanes.playable).toEqual({ waiting: 0, delayed: 1, running: 0, failed: 0 });
    expect(o.running).toMatchObject([{ name: 'video.storyboard', lane: 'background', state: 'running', payload: { videoId: 'slow' } }]);
    expect(o.failed).toMatchObject([
      { name: 'video.ladder', lane: 'background', state: 'failed', payload: { videoId: 'bad' }, attempts: 1, error: 'broken source' },
    ]);
    const failedId = o.failed[0]!.id;
    expect(await q.findJob(failedId)).toMatchObject({ state: 'failed', name: 'video.ladder' });
    expect(await q.findJob('404')).toBeNull();
    expect(await q.retryFailed(o.running[0]!.id)).toBe(false);
    expect(await q.retryFailed(failedId)).toBe(true);
    // Waiting behind the storyboard in the one background slot: no longer failed, so not sent twice.
    expect(await q.findJob(failedId)).toMatchObject({ state: 'waiting', attempts: 0 });
    expect(await q.retryFailed(failedId)).toBe(false);
    release();
    await waitFor('the retried ladder', () => outcomes('done').length === 2);
    expect(ladderCalls).toBe(2);
    expect((await q.overview()).lanes.background).toEqual({ waiting: 0, delayed: 0, running: 0, failed: 0 });
  });

  it('reports progress', async () => {
    const progress: number[] = [];
    const q = queue({ onProgress: (e) => progress.push(e.percent) });
    await q.start(
      {
        'video.ladder': async (_p, ctx) => {
          await ctx.progress(10);
          await ctx.progress(55.4);
          await ctx.progress(140);
        },
      },
      { concurrency: 1 },
    );
    await q.enqueue('video.ladder', { videoId: 'p' });
    await waitFor('the job', () => outcomes('done').length === 1);
    expect(progress).toEqual([10, 55, 100]);
    if (q instanceof BullmqQueue) {
      const job = await q.bullQueue().getJob(outcomes('done')[0]!.id);
      expect(job?.progress).toBe(100);
    }
  });

  it('aborts a job that runs past its time limit', async () => {
    const q = queue({ timeLimitMs: { 'video.ladder': 300 } });
    let abortedAfter = 0;
    await q.start(
      {
        'video.ladder': async (_p, ctx) => {
          const t0 = Date.now();
          await new Promise((_r, reject) =>
            ctx.signal.addEventListener('abort', () => {
              abortedAfter = Date.now() - t0;
              reject(ctx.signal.reason);
            }),
          );
        },
      },
      { concurrency: 1 },
    );
    await q.enqueue('video.ladder', { videoId: 'slow' }, { maxAttempts: 1 });
    await waitFor('the time-limit failure', () => outcomes('failed').length === 1);
    expect(abortedAfter).toBeGreaterThanOrEqual(280);
    expect(abortedAfter).toBeLessThan(2000);
    expect(outcomes('failed')[0]!.error).toMatch(/time limit/);
  });

  it('processes each job exactly once with two consumers', async () => {
    const runs = new Map<string, string[]>();
    const handlers = (consumer: string): JobHandlers => ({
      'video.playable': async ({ videoId }) => {
        runs.set(videoId, [...(runs.get(videoId) ?? []), consumer]);
        await sleep(20 + Math.random() * 30);
      },
    });
    const a = queue();
    const b = queue();
    await a.start(handlers('a'), { concurrency: 3 });
    await b.start(handlers('b'), { concurrency: 3 });
    const ids = Array.from({ length: 40 }, (_, i) => `v${i}`);
    await Promise.all(ids.map((videoId) => a.enqueue('video.playable', { videoId })));
    await waitFor('all forty jobs', () => outcomes('done').length === 40);
    await sleep(300);
    expect([...runs.keys()].sort()).toEqual([...ids].sort());
    for (const [id, by] of runs) expect(by, id).toHaveLength(1);
    const byConsumer = [...runs.values()].flat();
    expect(byConsumer.filter((c) => c === 'a').length).toBeGreaterThan(0);
    expect(byConsumer.filter((c) => c === 'b').length).toBeGreaterThan(0);
  });

  it('waits for a running job on close', async () => {
    const q = queue();
    let started = false;
    let finished = false;
    await q.start(
      {
        'video.playable': async () => {
          started = true;
          await sleep(400);
          finished = true;
        },
      },
      { concurrency: 1 },
    );
    await q.enqueue('video.playable', { videoId: 'x' });
    await waitFor('the job to start', () => started);
    await q.close();
    expect(finished).toBe(true);
    expect(outcomes('done')).toHaveLength(1);
  });

  it('aborts a job still running after the close grace period, and puts it back without using an attempt', async () => {
    const q = queue({ closeGraceMs: 200 });
    let started = false;
    let abortReason = '';
    await q.start(
      {
        'video.ladder': async (_p, ctx) => {
          started = true;
          await new Promise((_r, reject) =>
            ctx.signal.addEventListener('abort', () => {
              abortReason = String(ctx.signal.reason?.message);
              reject(ctx.signal.reason);
            }),
          );
        },
      },
      { concurrency: 1 },
    );
    await q.enqueue('video.ladder', { videoId: 'interrupted' }, { maxAttempts: 1 });
    await waitFor('the job to start', () => started);
    await q.close();
    expect(abortReason).toBe('Worker is shutting down');
    expect(outcomes('failed')).toHaveLength(0);

    const attempts: number[] = [];
    const next = queue();
    await next.start({ 'video.ladder': async (_p, ctx) => void attempts.push(ctx.attempt) }, { concurrency: 1 });
    await waitFor('another worker to finish it', () => outcomes('done').length === 1);
    expect(attempts).toEqual([1]);
  });

  describe('when a consumer process is killed', () => {
    let child: ChildProcess | null = null;
    afterEach(() => {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      child = null;
    });

    it('hands its job to another consumer once the lease lapses', async () => {
      const producer = queue();
      await producer.enqueue('video.ladder', { videoId: 'orphan' });
      child = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, '../../test/support/queue-consumer.ts')], {
        env: { ...process.env, ...backend.childEnv(), QUEUE_LEASE_MS: '1000' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      await waitFor('the other process to take the job', () => out.includes('started {"videoId":"orphan"}'), 30_000);
      child.kill('SIGKILL');
      await new Promise((r) => child!.once('exit', r));

      const attempts: number[] = [];
      const killedAt = Date.now();
      const survivor = queue({ leaseMs: 1000 });
      await survivor.start({ 'video.ladder': async (_p, ctx) => void attempts.push(ctx.attempt) }, { concurrency: 1 });
      await waitFor('the orphaned job to be finished', () => outcomes('done').length === 1, 20_000);
      expect(Date.now() - killedAt).toBeLessThan(10_000);
      expect(attempts).toHaveLength(1);
      if (backend.finalState) expect(await backend.finalState()).toMatchObject([{ status: 'done', attempts: 2 }]);
    });
  });
});
