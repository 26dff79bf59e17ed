import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../src/media/fixtures.js';
import { S3Storage } from '../src/storage/s3-storage.js';
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
const CLIPS = [
  { width: 320, height: 240, seconds: 3 },
  { width: 640, height: 360, seconds: 4 },
  { width: 480, height: 270, seconds: 3, fps: 30 },
  { width: 426, height: 240, seconds: 5 },
];

/** A Redis database nobody is using, so the site's default key prefix cannot meet another run's. */
async function pickRedisDb(): Promise<number> {
  const redis = new Redis(REDIS_BASE);
  try {
    const info = await redis.info('keyspace');
    const used = new Set([...info.matchAll(/^db(\d+):/gm)].map((m) => Number(m[1])));
    const free = [9, 10, 11, 12, 13, 14, 15, 8, 7, 6].filter((n) => !used.has(n));
    if (free.length === 0) throw new Error('no empty Redis database for the test');
    return free[Math.floor(Math.random() * free.length)]!;
  } finally {
    await redis.quit();
  }
}

describe('one API process and two worker processes on PostgreSQL, Redis and S3', () => {
  let s3: TestS3Server;
  let pg: Awaited<ReturnType<typeof createPgDatabase>>;
  let redisUrl = '';
  const dirs: string[] = [];
  const procs: RunningProcess[] = [];
  let api: ApiClient;
  let apiProc: RunningProcess;
  const workers: RunningProcess[] = [];
  let clipsDir = '';

  beforeAll(async () => {
    const built = buildServer();
    s3 = await startS3Server();
    pg = await createPgDatabase();
    redisUrl = `${REDIS_BASE}/${await pickRedisDb()}`;
    clipsDir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-clips-'));
    await Promise.all([
      built,
      ...CLIPS.map((c, i) => makeClip(process.env.FFMPEG_PATH ?? 'ffmpeg', path.join(clipsDir, `clip-${i}.mp4`), c)),
      sharp({ create: { width: 320, height: 180, channels: 3, background: { r: 30, g: 90, b: 160 } } })
        .png()
        .toFile(path.join(clipsDir, 'thumb.png')),
    ]);

    const port = await freePort();
    const common = {
      DATABASE_URL: pg.url,
      REDIS_URL: redisUrl,
      ...s3.env,
      DEMO_ACCOUNT: 'false',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      RATE_LIMIT_AUTH_PER_MINUTE: '10000',
      RATE_LIMIT_UPLOADS_PER_HOUR: '10000',
      RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
    };
    const dataDir = async () => {
      const d = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-proc-'));
      dirs.push(d);
      return d;
    };
    apiProc = startProcess('api', MAIN_JS, { ...common, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: await dataDir(), RUN_JOBS_IN_PROCESS: 'false' });
    procs.push(apiProc);
    api = new ApiClient(`http://127.0.0.1:${port}`);
    await waitForHealthy(api, apiProc);
    for (const name of ['worker-a', 'worker-b']) {
      const w = startProcess(name, WORKER_JS, { ...common, DATA_DIR: await dataDir(), JOB_CONCURRENCY: '2' });
      procs.push(w);
      workers.push(w);
    }
    await Promise.all(workers.map((w) => w.waitForLog('start', (l) => l.msg === 'worker started')));
  }, 240_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    if (redisUrl) {
      const redis = new Redis(redisUrl);
      const keys = await redis.keys('reelhouse:*');
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    }
    await pg?.drop();
    await s3?.stop();
    for (const d of [...dirs, clipsDir]) if (d) await fs.rm(d, { recursive: true, force: true });
  });

  it('processes every uploaded video exactly once and makes all of them playable', async () => {
    await api.signUp();
    const uploaded = await Promise.all(
      CLIPS.map(async (_c, i) => {
        const form = await clipUploadForm(clipsDir, `clip-${i}.mp4`, `Clip number ${i}`, `Generated test clip ${i}`);
        const res = await api.call('POST', '/api/v1/videos/', form);
        expect(res.status, JSON.stringify(res.json)).toBe(201);
        return res.json.data._id as string;
      }),
    );

    // The API runs no jobs itself: it only enqueues.
    const deadline = Date.now() + 180_000;
    const ready = new Map<string, VideoUrls>();
    while (ready.size < uploaded.length) {
      for (const id of uploaded) {
        if (ready.has(id)) continue;
        const res = await api.call('GET', `/api/v1/videos/${id}`);
        expect(res.status).toBe(200);
        const v = res.json.data;
        expect(v.status, `video ${id}: ${v.failureReason ?? ''}`).not.toBe('failed');
        if (v.status === 'ready' && v.hls && v.storyboard) ready.set(id, v);
      }
      if (Date.now() > deadline) throw new Error(`only ${ready.size} of ${uploaded.length} videos became ready`);
      await new Promise((r) => setTimeout(r, 500));
    }

    for (const v of ready.values()) await fetchEverything(api, v);

    // Every video's job ran once, on one of the two workers, and succeeded there. (The workers also
    // ask for trending's scheduled rebuild, which is not a video's job.)
    const videoJob = (l: { name?: unknown }) => String(l.name).startsWith('video.');
    const started = workers.flatMap((w) =>
      w.logs
        .filter((l) => l.msg === 'job started' && videoJob(l))
        .map((l) => ({ worker: w.name, name: String(l.name), videoId: (l.payload as { videoId: string }).videoId })),
    );
    const runs = new Map<string, string[]>();
    for (const s of started) runs.set(`${s.videoId} ${s.name}`, [...(runs.get(`${s.videoId} ${s.name}`) ?? []), s.worker]);
    const expected = uploaded.flatMap((id) => ['video.playable', 'video.storyboard', 'video.ladder'].map((n) => `${id} ${n}`)).sort();
    expect([...runs.keys()].sort()).toEqual(expected);
    for (const [job, by] of runs) expect(by, job).toHaveLength(1);
    const done = workers.flatMap((w) => w.logs.filter((l) => l.msg === 'job done' && videoJob(l)));
    expect(done).toHaveLength(expected.length);
    expect(new Set(started.map((s) => s.worker))).toEqual(new Set(['worker-a', 'worker-b']));
    expect(apiProc.logs.filter((l) => l.msg === 'job started')).toHaveLength(0);

    // Nothing was left on the workers' disks.
    for (const d of dirs) {
      const work = path.join(d, 'work');
      const entries = await fs.readdir(work, { recursive: true }).catch(() => []);
      expect(
        entries.filter((e) => e.includes(path.sep)),
        work,
      ).toEqual([]);
    }

    // And the objects really are in the bucket.
    const storage = new S3Storage({ ...s3, forcePathStyle: true, publicBaseUrl: null });
    try {
      for (const id of uploaded) {
        const keys = await storage.list(`videos/${id}/`);
        expect(keys).toContain(`videos/${id}/hls/master.m3u8`);
        expect(keys.some((k) => k.endsWith('.m4s'))).toBe(true);
        // Every job has finished, so the original upload is gone from the bucket.
        expect(keys).not.toContain(`videos/${id}/source.mp4`);
      }
    } finally {
      storage.destroy();
    }
  }, 300_000);
});
