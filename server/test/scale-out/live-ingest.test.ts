import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
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

/** What a browser's MediaRecorder makes (VP8 and Opus in WebM), made by ffmpeg in real time on stdout. */
function record(seconds: number): ChildProcess {
  return spawn(
    process.env.FFMPEG_PATH ?? 'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=30:duration=${seconds}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}:sample_rate=48000`],
      ...['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '600k', '-g', '30'],
      ...['-c:a', 'libopus', '-f', 'webm', '-cluster_time_limit', '300', 'pipe:1'],
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
}

/**
 * The ingest on its own (`npm run ingest`), beside an API process with none (LIVE_INGEST=off), on
 * one PostgreSQL database and Redis: the API tells the encoder where to publish, serves the live
 * from the shared storage, and its key renewal and end reach the ingest through Redis. A browser
 * publishing through the API is relayed to that ingest.
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

  it('relays a browser publishing through the API to the ingest elsewhere, and the live plays', { timeout: 120_000 }, async () => {
    const created = await api.call('POST', '/api/v1/live', { title: 'From a browser, through the API', description: 'Relayed to the ingest' });
    expect(created.status).toBe(201);
    expect(created.json.data.ingest).toEqual({ rtmp: rtmpUrl, browser: true });
    const videoId: string = created.json.data.video._id;

    const url = `${api.base.replace(/^http/, 'ws')}/api/v1/live/${videoId}/publish?type=${encodeURIComponent('video/webm;codecs=vp8,opus')}`;
    const ws = new WebSocket(url, { headers: { origin: api.base, cookie: `accessToken=${api.accessToken}` } });
    const messages: string[] = [];
    ws.on('message', (data, isBinary) => !isBinary && messages.push(data.toString()));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const recorder = record(40);
    pushes.push(recorder);
    recorder.stdout!.on('data', (chunk: Buffer) => ws.readyState === WebSocket.OPEN && ws.send(chunk));
    try {
      const onAir = await until(
        'the browser live on air',
        async () => (await api.call('GET', `/api/v1/videos/${videoId}`)).json.data,
        (v) => v?.live?.status === 'live' && !!v.hls?.url,
        45_000,
      );
      expect(JSON.parse(messages[0]!)).toEqual({ state: 'publishing' });
      const master = await until(
        'the master playlist served by the API',
        () => api.fetchBytes(onAir.hls.url),
        (r) => r.status === 200,
        30_000,
      );
      expect(master.body.toString()).toMatch(/RESOLUTION=320x240,CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
      // The ingest, not the API process, took the stream.
      expect(ingest.logs.some((l) => l.msg === 'ffmpeg broadcast started' && String(l.dir).includes(videoId))).toBe(true);
    } finally {
      recorder.kill('SIGKILL');
      ws.terminate();
    }
    const ended = await api.call('POST', `/api/v1/live/${videoId}/end`);
    expect(ended.status).toBe(200);
  });
});
