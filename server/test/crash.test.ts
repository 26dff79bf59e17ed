import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../src/media/fixtures.js';
import { LocalStorage } from '../src/storage/local-storage.js';
import { S3Storage } from '../src/storage/s3-storage.js';
import type { Storage } from '../src/storage/storage.js';
import { createPgDatabase } from './support/databases.js';
import { fetchEverything, type VideoUrls } from './support/playback.js';
import {
  ApiClient,
  clipUploadForm,
  buildServer,
  freePort,
  MAIN_JS,
  type RunningProcess,
  startProcess,
  waitForHealthy,
  WORKER_JS,
} from './support/processes.js';
import { startS3Server, type TestS3Server } from './support/s3-server.js';

const REDIS_BASE = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// Long enough that the ladder is still encoding when the process is killed.
const CLIP = { width: 1280, height: 720, seconds: 12 };

let clipsDir = '';
beforeAll(async () => {
  clipsDir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-crash-clips-'));
  await Promise.all([
    buildServer(),
    makeClip(process.env.FFMPEG_PATH ?? 'ffmpeg', path.join(clipsDir, 'clip.mp4'), CLIP),
    sharp({ create: { width: 320, height: 180, channels: 3, background: { r: 160, g: 90, b: 30 } } })
      .png()
      .toFile(path.join(clipsDir, 'thumb.png')),
  ]);
}, 240_000);
afterAll(async () => {
  if (clipsDir) await fs.rm(clipsDir, { recursive: true, force: true });
});

interface Site {
  api: ApiClient;
  /** The process that runs the jobs, started again by restart(). */
  processing: () => RunningProcess;
  restartProcessing(): Promise<void>;
  storage: Storage;
  /** Data directories of the processes that run jobs (their work dirs must end up empty). */
  workerDataDir: string;
  /** Local storage's staging directory, when there is one. */
  stagingDir: string | null;
  close(): Promise<void>;
}

const common = {
  DEMO_ACCOUNT: 'false',
  LOG_LEVEL: 'info',
  NODE_ENV: 'production',
  RATE_LIMIT_AUTH_PER_MINUTE: '10000',
  RATE_LIMIT_UPLOADS_PER_HOUR: '10000',
  RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
};

/** One process on one machine: SQLite, media on local disk, jobs in the database, run in-process. */
async function embeddedSite(): Promise<Site> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-crash-'));
  const port = await freePort();
  const env = { ...common, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' };
  const api = new ApiClient(`http://127.0.0.1:${port}`);
  let proc = startProcess('site', MAIN_JS, env);
  await waitForHealthy(api, proc);
  return {
    api,
    processing: () => proc,
    async restartProcessing() {
      proc = startProcess('site (restarted)', MAIN_JS, env);
      await waitForHealthy(api, proc);
    },
    storage: new LocalStorage(path.join(dataDir, 'media')),
    workerDataDir: dataDir,
    stagingDir: path.join(dataDir, 'media', '.tmp'),
    async close() {
      await proc.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** An API process and a worker process on PostgreSQL, Redis (BullMQ) and S3. */
async function scaledSite(): Promise<Site> {
  const s3: TestS3Server = await startS3Server();
  const pg = await createPgDatabase();
  const redis = new Redis(REDIS_BASE);
  const info = await redis.info('keyspace');
  await redis.quit();
  const used = new Set([...info.matchAll(/^db(\d+):/gm)].map((m) => Number(m[1])));
  const free = [15, 14, 13, 12, 11, 10, 9, 8].filter((n) => !used.has(n));
  const redisUrl = `${REDIS_BASE}/${free[Math.floor(Math.random() * free.length)]}`;
  const apiDir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-crash-api-'));
  const workerDir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-crash-worker-'));
  const port = await freePort();
  const shared = { ...common, ...s3.env, DATABASE_URL: pg.url, REDIS_URL: redisUrl };
  const api = new ApiClient(`http://127.0.0.1:${port}`);
  const apiProc = startProcess('api', MAIN_JS, { ...shared, DATA_DIR: apiDir, PORT: String(port), HOST: '127.0.0.1', RUN_JOBS_IN_PROCESS: 'false' });
  await waitForHealthy(api, apiProc);
  const workerEnv = { ...shared, DATA_DIR: workerDir };
  let worker = startProcess('worker', WORKER_JS, workerEnv);
  await worker.waitForLog('start', (l) => l.msg === 'worker started');
  const storage = new S3Storage({ ...s3, forcePathStyle: true, publicBaseUrl: null });
  return {
    api,
    processing: () => worker,
    async restartProcessing() {
      worker = startProcess('worker (restarted)', WORKER_JS, workerEnv);
      await worker.waitForLog('start', (l) => l.msg === 'worker started');
    },
    storage,
    workerDataDir: workerDir,
    stagingDir: null,
    async close() {
      await Promise.all([apiProc.stop(), worker.stop()]);
      storage.destroy();
      const r = new Redis(redisUrl);
      const keys = await r.keys('reelhouse:*');
      if (keys.length) await r.del(...keys);
      await r.quit();
      await pg.drop();
      await s3.stop();
      await fs.rm(apiDir, { recursive: true, force: true });
      await fs.rm(workerDir, { recursive: true, force: true });
    },
  };
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe.each([
  ['one process, SQLite, local disk', embeddedSite],
  ['API + worker, PostgreSQL, Redis, S3', scaledSite],
])('a processing process killed mid-transcode (%s)', (_label, makeSite) => {
  let site: Site;
  beforeAll(async () => {
    site = await makeSite();
  }, 120_000);
  afterAll(async () => {
    await site?.close();
  });

  it('is restarted, and the video still becomes ready with no stray files', async () => {
    const { api } = site;
    await api.signUp();
    const form = await clipUploadForm(clipsDir, 'clip.mp4', 'Interrupted clip', 'Its worker is killed halfway through the ladder');
    const up = await api.call('POST', '/api/v1/videos/', form);
    expect(up.status, JSON.stringify(up.json)).toBe(201);
    const id: string = up.json.data._id;

    // Wait for the ladder to be encoding: its job has started and ffmpeg has written files.
    const victim = site.processing();
    await victim.waitForLog('the ladder job', (l) => l.msg === 'job started' && l.name === 'video.ladder', 120_000);
    const workDir = path.join(site.workerDataDir, 'work');
    const t0 = Date.now();
    while ((await filesUnder(workDir)).filter((f) => f.endsWith('.m4s')).length < 2) {
      if (Date.now() - t0 > 180_000) throw new Error('the ladder never wrote a segment');
      await new Promise((r) => setTimeout(r, 100));
    }
    const before = await api.call('GET', `/api/v1/videos/${id}`);
    expect(before.json.data.hls).toBeNull();
    await victim.kill();
    expect(
      victim.logs.some((l) => l.msg === 'job done' && l.name === 'video.ladder'),
      'the ladder finished before the kill',
    ).toBe(false);
    // What the killed process was in the middle of is still on disk.
    expect((await filesUnder(workDir)).length).toBeGreaterThan(0);

    await site.restartProcessing();
    const deadline = Date.now() + 420_000;
    let video: VideoUrls & { status: string; progress: number };
    for (;;) {
      const res = await api.call('GET', `/api/v1/videos/${id}`);
      video = res.json.data;
      expect(video.status, JSON.stringify(video)).not.toBe('failed');
      // Overall progress is worked out again just after a step records its output: 100 follows the
      // ladder's key by a moment.
      if (video.status === 'ready' && video.hls && video.storyboard && video.progress === 100) break;
      if (Date.now() > deadline) throw new Error(`video never became ready: ${JSON.stringify(video)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    // The restarted process finished the ladder (its log line follows the row update by a moment).
    await site.processing().waitForLog('the ladder job to finish', (l) => l.msg === 'job done' && l.name === 'video.ladder', 30_000);

    // The last job removes the original just after recording its output.
    const sourceKey = `videos/${id}/source.mp4`;
    while (await site.storage.stat(sourceKey)) {
      if (Date.now() > deadline) throw new Error('the original upload was never removed');
      await new Promise((r) => setTimeout(r, 200));
    }
    // Everything stored under the video is something a player fetches.
    const referenced = await fetchEverything(api, video);
    const stored = await site.storage.list(`videos/${id}/`);
    const stray = stored.filter((k) => !referenced.has(k));
    expect(stray).toEqual([]);
    for (const k of referenced) expect(stored).toContain(k);

    // No scratch files of either process, and no half-written uploads, are left.
    expect(await filesUnder(workDir)).toEqual([]);
    if (site.stagingDir) expect(await filesUnder(site.stagingDir)).toEqual([]);
  }, 720_000);
});
