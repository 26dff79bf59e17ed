import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedVideo } from '../../test/support/seed.js';
import { createTestApp, multipart, type SignedIn, type TestApp } from '../../test/support/test-app.js';
import { LocalQueue } from '../jobs/local-queue.js';
import { createAnswerStore } from '../lib/create-answer-store.js';
import { ScheduledPublishing } from '../modules/videos/scheduled-publishing.js';
import { ScheduledPublishingRepository } from '../modules/videos/scheduled-publishing.repository.js';
import { loadSiteId } from '../modules/users/settings.repository.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const API = '/api/v1';
const silent = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Scaled mode: two API processes (two apps over one database and one Redis) and a worker's store,
 * sharing kept answers and their generation through Redis.
 */
describe('answers shared through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let owner: SignedIn;

  beforeAll(async () => {
    const probe = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
    await probe.connect();
    await probe.quit();
    a = await createTestApp({ env: { REDIS_URL } });
    const db = a.ctx.config.database;
    b = await createTestApp({ env: { REDIS_URL, DATA_DIR: a.dataDir, ...(db.kind === 'postgres' ? { DATABASE_URL: db.url } : {}) } });
    await waitReady(a);
    await waitReady(b);
    owner = await a.signUp();
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const get = (app: TestApp, url: string) => app.call({ method: 'GET', url: `${API}${url}` });

  it('an answer kept by one process is served by the other', async () => {
    const video = await seedVideo(a.ctx, owner.id);
    expect((await get(a, `/videos/${video.id}`)).headers['x-cache']).toBe('miss');
    const other = await get(b, `/videos/${video.id}`);
    expect(other.headers['x-cache']).toBe('hit');
    expect(other.data._id).toBe(video.id);
  });

  it("a write on one process makes the other's next answer fresh", async () => {
    const video = await seedVideo(a.ctx, owner.id, { title: 'Old title' });
    await get(a, `/videos/${video.id}`);
    expect((await get(a, `/videos/${video.id}`)).headers['x-cache']).toBe('hit');
    const edit = await b.call({ method: 'PATCH', url: `${API}/videos/${video.id}`, as: owner, payload: await multipart({ title: 'New title' }) });
    expect(edit.statusCode).toBe(200);
    const fresh = await get(a, `/videos/${video.id}`);
    expect(fresh.headers['x-cache']).toBe('miss');
    expect(fresh.data.title).toBe('New title');
  });

  it("a viewer's notifications read on one process are made afresh on the other", async () => {
    const commenter = await a.signUp();
    const video = await seedVideo(a.ctx, owner.id);
    expect((await a.call({ method: 'POST', url: `${API}/comments/${video.id}`, as: commenter, payload: { content: 'Across processes' } })).statusCode).toBe(
      201,
    );
    const unread = (app: TestApp) => app.call({ method: 'GET', url: `${API}/notifications/unread-count`, as: owner });
    expect((await unread(a)).data.count).toBeGreaterThan(0);
    const kept = await unread(b);
    expect(kept.headers['x-cache']).toBe('hit');
    expect((await b.call({ method: 'PATCH', url: `${API}/notifications/read`, as: owner, payload: {} })).statusCode).toBe(200);
    const fresh = await unread(a);
    expect(fresh.headers['x-cache']).toBe('miss');
    expect(fresh.data.count).toBe(0);
  });

  it("a scheduled video published by a worker's handler shows on the API processes at once", async () => {
    const video = await seedVideo(a.ctx, owner.id);
    const publishAt = Date.now() + 3_600_000;
    expect(
      (
        await a.call({
          method: 'PATCH',
          url: `${API}/videos/${video.id}`,
          as: owner,
          payload: await multipart({ publishAt: new Date(publishAt).toISOString() }),
        })
      ).statusCode,
    ).toBe(200);
    await get(a, '/videos/');
    expect((await get(b, '/videos/')).headers['x-cache']).toBe('hit');
    // A worker has its own store, on the same Redis and site, as `npm run worker` builds it.
    const workerStore = createAnswerStore(a.ctx.config, await loadSiteId(a.ctx.db), pino({ level: 'silent' }));
    try {
      await until(async () => (await workerStore.lookup('warm-up')).generation !== null);
      const queue = new LocalQueue({ db: a.ctx.db, dialect: a.ctx.dialect, logger: silent });
      const publishing = new ScheduledPublishing({
        videos: new ScheduledPublishingRepository(a.ctx.db),
        queue,
        logger: silent,
        changes: workerStore,
        now: () => publishAt + 1,
      });
      expect(await publishing.publish({ videoId: video.id, publishAt })).toBe('published');
    } finally {
      await workerStore.close();
    }
    for (const app of [a, b]) expect((await get(app, '/videos/')).data.videos.map((v: { _id: string }) => v._id)).toContain(video.id);
  });
});

describe('a Redis that stops', () => {
  let redis: ChildProcess | null = null;
  let port = 0;
  let t: TestApp;

  const startRedis = async () => {
    redis = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await until(async () => {
      const probe = new Redis({ port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => {});
      try {
        await probe.connect();
        return true;
      } catch {
        return false;
      } finally {
        probe.disconnect();
      }
    });
  };
  const stopRedis = async () => {
    const proc = redis;
    redis = null;
    if (!proc || proc.exitCode !== null) return;
    await new Promise((resolve) => {
      proc.once('exit', resolve);
      proc.kill('SIGKILL');
    });
  };

  beforeAll(async () => {
    port = await freePort();
    await startRedis();
    t = await createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
    await waitReady(t);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await stopRedis();
  });

  it('degrades to answers from the database, without a 5xx, and shares again once it is back', async () => {
    const owner = await t.signUp();
    const video = await seedVideo(t.ctx, owner.id, { title: 'Before the outage' });
    await t.call({ method: 'GET', url: `${API}/videos/${video.id}` });
    expect((await t.call({ method: 'GET', url: `${API}/videos/${video.id}` })).headers['x-cache']).toBe('hit');

    // Every Redis client of the site listens for its errors: ioredis prints an unhandled one itself.
    const printed = vi.spyOn(console, 'error');
    await stopRedis();
    for (let i = 0; i < 3; i++) {
      const res = await t.call({ method: 'GET', url: `${API}/videos/${video.id}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-cache']).toBe('miss');
    }
    // A write during the outage still succeeds, and its answer is fresh.
    const edit = await t.call({ method: 'PATCH', url: `${API}/videos/${video.id}`, as: owner, payload: await multipart({ title: 'During the outage' }) });
    expect(edit.statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/v1/videos/' })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: `${API}/videos/${video.id}` })).data.title).toBe('During the outage');

    await startRedis();
    await until(async () => {
      await t.call({ method: 'GET', url: `${API}/videos/${video.id}` });
      return (await t.call({ method: 'GET', url: `${API}/videos/${video.id}` })).headers['x-cache'] === 'hit';
    });
    expect((await t.call({ method: 'GET', url: `${API}/videos/${video.id}` })).data.title).toBe('During the outage');
    expect(printed.mock.calls.map((args) => String(args[0])).filter((line) => line.includes('Unhandled error event'))).toEqual([]);
    printed.mockRestore();
  }, 60_000);
});

async function waitReady(app: TestApp) {
  await until(async () => (await app.ctx.answers.lookup('warm-up')).generation !== null);
}

async function until(check: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}
