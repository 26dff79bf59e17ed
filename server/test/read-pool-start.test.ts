import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, buildServer, freePort, MAIN_JS, type RunningProcess, startProcess, waitForHealthy } from './support/processes.js';

/**
 * The built server on SQLite with the read pool, each way it can be set. A start-up read is in
 * flight before anything listens: the pool's worker must keep the process alive until it answers.
 */
const running: RunningProcess[] = [];
const dirs: string[] = [];

beforeAll(() => buildServer(), 240_000);
afterAll(async () => {
  await Promise.all(running.map((p) => p.kill()));
  await Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true })));
});

describe('the server with SQLite read workers', () => {
  for (const workers of ['1', '2', undefined]) {
    it(`starts and serves reads with SQLITE_READ_WORKERS=${workers ?? '(unset: one per core)'}`, async () => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-read-pool-'));
      dirs.push(dataDir);
      const port = await freePort();
      const env: Record<string, string> = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'production' };
      if (workers) env.SQLITE_READ_WORKERS = workers;
      const proc = startProcess(`site (${workers ?? 'default'} read workers)`, MAIN_JS, env);
      running.push(proc);
      const api = new ApiClient(`http://127.0.0.1:${port}`);
      await waitForHealthy(api, proc, 30_000);
      // A read answered by the pool: the home feed.
      const home = await api.call('GET', '/api/v1/videos/?pageNumber=1&pageSize=12');
      expect(home.status).toBe(200);
      expect(Array.isArray(home.json.data.videos)).toBe(true);
      expect(proc.child.exitCode).toBeNull();
      await proc.stop();
    }, 60_000);
  }
});
