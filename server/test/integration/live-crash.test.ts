import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, buildServer, freePort, MAIN_JS, type RunningProcess, startProcess, waitForHealthy } from '../support/processes.js';
import { type Push, push, until } from '../support/rtmp-push.js';

/**
 * The server killed outright in the middle of a live (SIGKILL: no shutdown, its recording lost with
 * its work directory): at the next start the live is over, and its replay is made from what the
 * broadcast had stored.
 */
describe('a live whose server died', () => {
  let dataDir: string;
  let server: RunningProcess | null = null;
  let encoder: Push | null = null;

  beforeAll(async () => {
    await buildServer();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-live-crash-'));
  }, 180_000);

  afterAll(async () => {
    encoder?.child.kill('SIGKILL');
    // The server may be making the replay: it stops within a few seconds, or is killed.
    if (server) {
      const running = server;
      const timer = setTimeout(() => void running.kill(), 15_000);
      await running.stop();
      clearTimeout(timer);
    }
    await fs.rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('ends at the next start, and its replay is what the broadcast had stored', { timeout: 240_000 }, async () => {
    const [port, rtmpPort] = [await freePort(), await freePort()];
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LIVE_INGEST: 'in-process',
      LIVE_RTMP_PORT: String(rtmpPort),
      DEMO_ACCOUNT: 'false',
    };
    server = startProcess('api', MAIN_JS, env);
    const api = new ApiClient(`http://127.0.0.1:${port}`);
    await waitForHealthy(api, server);
    await api.signUp();
    const created = await api.call('POST', '/api/v1/live', { title: 'Cut short', description: 'The server dies' });
    expect(created.status).toBe(201);
    const id: string = created.json.data.video._id;
    encoder = push(rtmpPort, created.json.data.streamKey, 60);

    const page = await until(
      'on air',
      async () => (await api.call('GET', `/api/v1/videos/${id}`)).json.data,
      (v) => v?.live?.status === 'live' && !!v.hls?.url,
      30_000,
    );
    const rung = page.hls.url.replace(/master\.m3u8$/, 'r0/index.m3u8');
    await until(
      'five seconds of the broadcast stored',
      async () => (await api.fetchBytes(rung)).body.toString().split('#EXTINF').length - 1,
      (n) => n >= 5,
      30_000,
    );

    await server.kill();
    encoder.child.kill('SIGKILL');
    server = startProcess('api-again', MAIN_JS, env);
    await waitForHealthy(api, server);

    const replay = await until(
      'the replay ready',
      async () => (await api.call('GET', `/api/v1/videos/${id}`)).json.data,
      (v) => v?.status === 'ready' && !!v.hls?.url && !v.hls.url.includes('/broadcast/'),
      180_000,
    );
    expect(replay.live.status).toBe('ended');
    expect(replay.duration).toBeGreaterThanOrEqual(4);
    expect(server.logs.some((l) => l.msg === 'a recording made from the broadcast of a live cut short')).toBe(true);
    const master = await api.fetchBytes(replay.hls.url);
    expect(master.status).toBe(200);
  });
});
