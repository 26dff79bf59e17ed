import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerTag } from '../src/lib/process-owner.js';
import { makeClip } from '../src/media/fixtures.js';
import { commandName, processesWith } from './support/owners.js';
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

// Long enough that the ladder's ffmpeg has many seconds left when its worker is killed.
const CLIP = { width: 1280, height: 720, seconds: 16 };

/**
 * One API process and worker processes sharing one data directory (SQLite, the database's job
 * table, media on local disk), as on a single machine; a worker is killed with SIGKILL while its
 * ffmpeg is making the ladder.
 */
describe('a worker killed with SIGKILL mid-ladder', () => {
  let dataDir = '';
  let clipsDir = '';
  const procs: RunningProcess[] = [];
  let api: ApiClient;
  let env: Record<string, string>;

  const startWorker = async (name: string) => {
    const worker = startProcess(name, WORKER_JS, env);
    procs.push(worker);
    const started = await worker.waitForLog('start', (l) => l.msg === 'worker started');
    return { worker, workDir: String(started.workDir) };
  };

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-killed-worker-'));
    clipsDir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-killed-worker-clips-'));
    await Promise.all([
      buildServer(),
      makeClip(process.env.FFMPEG_PATH ?? 'ffmpeg', path.join(clipsDir, 'clip.mp4'), CLIP),
      sharp({ create: { width: 320, height: 180, channels: 3, background: { r: 90, g: 30, b: 160 } } })
        .png()
        .toFile(path.join(clipsDir, 'thumb.png')),
    ]);
    const port = await freePort();
    env = {
      DATA_DIR: dataDir,
      DEMO_ACCOUNT: 'false',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      RATE_LIMIT_AUTH_PER_MINUTE: '10000',
      RATE_LIMIT_UPLOADS_PER_HOUR: '10000',
      RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
    };
    const apiProc = startProcess('api', MAIN_JS, { ...env, PORT: String(port), HOST: '127.0.0.1', RUN_JOBS_IN_PROCESS: 'false' });
    procs.push(apiProc);
    api = new ApiClient(`http://127.0.0.1:${port}`);
    await waitForHealthy(api, apiProc);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    // Whatever outlived a killed worker (the fault this file looks for) runs on files of this test's
    // data directory only: it is this test's to stop.
    if (dataDir) for (const pid of await processesWith(dataDir)) process.kill(pid, 'SIGKILL');
    for (const d of [dataDir, clipsDir]) if (d) await fs.rm(d, { recursive: true, force: true });
  }, 60_000);

  it("takes its ffmpeg with it, and the next sweep removes its work directory but no live process's", async () => {
    const victim = await startWorker('worker-a');
    await api.signUp();
    const form = await clipUploadForm(clipsDir, 'clip.mp4', 'Clip whose worker is killed', 'Killed while the ladder encodes');
    const up = await api.call('POST', '/api/v1/videos/', form);
    expect(up.status, JSON.stringify(up.json)).toBe(201);

    // The ladder's ffmpeg is running in the victim's work directory and has written a segment.
    await victim.worker.waitForLog('the ladder job', (l) => l.msg === 'job started' && l.name === 'video.ladder', 180_000);
    const t0 = Date.now();
    for (;;) {
      const files = await fs.readdir(victim.workDir, { recursive: true }).catch(() => []);
      const tools = await processesWith(victim.workDir);
      const names = await Promise.all(tools.map(commandName));
      if (names.includes('ffmpeg') && files.some((f) => f.endsWith('.m4s'))) break;
      if (Date.now() - t0 > 180_000) throw new Error('the ladder never got going');
      await new Promise((r) => setTimeout(r, 100));
    }

    // A second worker on the same data directory, and a directory of this (live) test process.
    const sibling = await startWorker('worker-b');
    const testOwn = path.join(dataDir, 'work', ownerTag());
    await fs.mkdir(testOwn, { recursive: true });
    await fs.writeFile(path.join(testOwn, 'kept.m4s'), 'x');

    await victim.worker.kill();
    expect(
      victim.worker.logs.some((l) => l.msg === 'job done' && l.name === 'video.ladder'),
      'the ladder finished before the kill',
    ).toBe(false);
    const killedAt = Date.now();
    let left = await processesWith(victim.workDir);
    while (left.length && Date.now() - killedAt < 2000) {
      await new Promise((r) => setTimeout(r, 50));
      left = await processesWith(victim.workDir);
    }
    expect(await Promise.all(left.map(commandName)), 'tools still running in the killed worker’s directory').toEqual([]);
    // The killed worker's directory is still there: nothing of its own could remove it.
    expect((await fs.readdir(victim.workDir, { recursive: true })).length).toBeGreaterThan(0);

    // The next worker to start sweeps: the killed worker's directory goes, the live ones stay.
    const next = await startWorker('worker-c');
    await expect(fs.stat(victim.workDir)).rejects.toThrow();
    expect((await fs.stat(sibling.workDir)).isDirectory()).toBe(true);
    expect(await fs.readdir(testOwn)).toEqual(['kept.m4s']);
    expect((await fs.readdir(path.join(dataDir, 'work'))).sort()).toEqual([path.basename(sibling.workDir), path.basename(next.workDir), ownerTag()].sort());
  }, 600_000);
});
