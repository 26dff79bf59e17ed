import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDatabase } from '../support/databases.js';
import { ApiClient, buildServer, freePort, MAIN_JS, ROOT, type RunningProcess, startProcess, waitForHealthy } from '../support/processes.js';
import { until } from '../support/rtmp-push.js';
import { claimRedisDb } from './site.js';

const INGEST_JS = path.join(ROOT, 'server/dist/ingest.js');

/** ffmpeg publishing a test pattern and a tone, as OBS would, until stopped. */
function push(rtmpUrl: string, key: string): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(
    process.env.FFMPEG_PATH ?? 'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '30', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', '-f', 'flv', `${rtmpUrl}/${key}`],
    ],
    { stdio: 'ignore' },
  );
  return { child, exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
}

/**
 * The ingest on its own (`npm run ingest`), beside an API process with none (LIVE_INGEST=off), on
 * one PostgreSQL database and Redis: the API tells the encoder where to publish, serves the live
 * from the shared storage, and its key renewal and end reach the ingest through Redis.
 */
describe('a live ingest in its own process', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  const pushes: ChildProcess[] = [];
  let api: ApiClient;
  let apiProcess: RunningProcess;
  let ingest: RunningProcess;
  let rtmpUrl: string;

  beforeAll(async () => {
    await buildServer();
    const [pg, redis] = await Promise.all([createPgDatabase(), claimRedisDb()]);
    cleanups.push(
      () => pg.drop(),
      () => redis.release(),
    );
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-live-ingest-'));
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    const [port, rtmpPort] = [await freePort(), await freePort()];
    rtmpUrl = `rtmp://127.0.0.1:${rtmpPort}/live`;
    const common = {
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      // Both on this machine: one data directory, whose media folder is the shared storage.
      DATA_DIR: dataDir,
      DEMO_ACCOUNT: 'false',
      LOG_LEVEL: 'info',
      LIVE_RTMP_PORT: String(rtmpPort),
      LIVE_RTMP_URL: rtmpUrl,
    };
    apiProcess = startProcess('api', MAIN_JS, { ...common, PORT: String(port), HOST: '127.0.0.1', LIVE_INGEST: 'off', RUN_JOBS_IN_PROCESS: 'true' });
    cleanups.push(() => apiProcess.stop());
    api = new ApiClient(`http://127.0.0.1:${port}`);
    await waitForHealthy(api, apiProcess);
    ingest = startProcess('ingest', INGEST_JS, common);
    cleanups.push(() => ingest.stop());
    await ingest.waitForLog('ingest start', (l) => l.msg === 'live ingest process started', 60_000);
    await api.signUp();
  }, 180_000);

  afterAll(async () => {
    for (const p of pushes) p.kill('SIGKILL');
    for (const c of cleanups.reverse()) await c().catch((err: Error) => console.error(`live ingest clean-up: ${err.message}`));
  });

  it('takes the encoder, is served by the API, cuts the old key off on renewal, and ends into a replay', { timeout: 240_000 }, async () => {
    const created = await api.call('POST', '/api/v1/live', { title: 'From the ingest machine', description: 'A live through npm run ingest' });
    expect(created.status).toBe(201);
    // The address the operator gave, not the API's host.
    expect(created.json.data.ingest.rtmp).toBe(rtmpUrl);
    const videoId: string = created.json.data.video._id;

    const first = push(rtmpUrl, created.json.data.streamKey);
    pushes.push(first.child);
    const onAir = await until(
      'the live on air with its playlist',
      async () => (await api.call('GET', `/api/v1/videos/${videoId}`)).json.data,
      (v) => v?.live?.status === 'live' && !!v.hls?.url,
      30_000,
    );
    const master = await until(
      'the master playlist served by the API',
      () => api.fetchBytes(onAir.hls.url),
      (r) => r.status === 200,
      30_000,
    );
    expect(master.body.toString()).toContain('#EXT-X-STREAM-INF');
    expect(ingest.logs.some((l) => l.msg === 'live ingest (RTMP) listening')).toBe(true);

    // A new key, asked of the API: the ingest, in another process, cuts the encoder off at once.
    const renewed = await api.call('POST', `/api/v1/live/${videoId}/key`);
    expect(renewed.status).toBe(200);
    const code = await Promise.race([first.exited, new Promise((r) => setTimeout(() => r('still publishing'), 15_000))]);
    expect(code).not.toBe('still publishing');

    const second = push(rtmpUrl, renewed.json.data.streamKey);
    pushes.push(second.child);
    await until(
      'the health of the second encoder',
      async () => (await api.call('GET', `/api/v1/live/${videoId}`)).json.data,
      (d) => d?.health?.lastDataAt !== null && Date.parse(d.health.lastDataAt) > Date.now() - 5000 && d.status === 'live',
      30_000,
    );
    await new Promise((r) => setTimeout(r, 3000));

    // The end, asked of the API, returns once the ingest has stored the recording: the replay follows.
    const ended = await api.call('POST', `/api/v1/live/${videoId}/end`);
    expect(ended.status).toBe(200);
    expect(ended.json.data.live.status).toBe('ended');
    const replay = await until(
      'the replay ready',
      async () => (await api.call('GET', `/api/v1/videos/${videoId}`)).json.data,
      (v) => v?.status === 'ready' && !!v.hls?.url && !v.hls.url.includes('/broadcast/'),
      180_000,
    );
    expect(replay.duration).toBeGreaterThan(1);
    await second.exited;
  });
});
