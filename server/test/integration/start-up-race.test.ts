import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, openDatabase } from '../../src/db/client.js';
import { createPgDatabase, testDialect } from '../support/databases.js';
import { ApiClient, buildServer, freePort, MAIN_JS, type RunningProcess, startProcess, waitForHealthy, WORKER_JS } from '../support/processes.js';

/**
 * Several processes of the built server started at the same moment on one fresh database, as a
 * deploy starts every API process and worker together: every one of them comes up and stays up,
 * the migrations, the demo account and the ADMIN_EMAILS grants are done once, and a second start
 * of all of them at once with new settings applies those settings once. On SQLite the processes
 * share one data directory (one database file, as the API and its workers do on one machine); with
 * TEST_DB=postgres they share one new PostgreSQL database, each with its own data directory.
 */
const APIS = 4;
const WORKERS = 2;
const DEMO_EMAIL = 'demo@start-up.test';
const OWNER = { username: 'siteowner', email: 'owner@start-up.test', password: 'owner-password-1', fullName: 'Site Owner' };

interface Started {
  apis: ApiClient[];
  procs: RunningProcess[];
}

describe(`${APIS} API processes and ${WORKERS} workers starting at once on one fresh ${testDialect} database`, () => {
  let pg: Awaited<ReturnType<typeof createPgDatabase>> | null = null;
  const dirs: string[] = [];
  let sharedDir = '';
  // Every process started, so that a round that failed leaves none behind.
  const started: RunningProcess[] = [];
  let handle: DbHandle | null = null;

  const newDir = async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-start-up-'));
    dirs.push(dir);
    return dir;
  };

  /** Spawns every process without waiting between them, then waits for each to be ready. */
  async function startAll(settings: Record<string, string>): Promise<Started> {
    const common = {
      ...(pg ? { DATABASE_URL: pg.url } : {}),
      DEMO_EMAIL,
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      ...settings,
    };
    const dataDir = async () => (pg ? await newDir() : sharedDir);
    const specs: { name: string; script: string; env: Record<string, string> }[] = [];
    const apis: ApiClient[] = [];
    for (let i = 0; i < APIS; i++) {
      const port = await freePort();
      apis.push(new ApiClient(`http://127.0.0.1:${port}`));
      specs.push({ name: `api-${i}`, script: MAIN_JS, env: { ...common, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: await dataDir() } });
    }
    for (let i = 0; i < WORKERS; i++) specs.push({ name: `worker-${i}`, script: WORKER_JS, env: { ...common, DATA_DIR: await dataDir() } });
    const procs = specs.map((s) => startProcess(s.name, s.script, s.env));
    started.push(...procs);
    await Promise.all([
      ...apis.map((api, i) => waitForHealthy(api, procs[i]!, 120_000)),
      ...procs.slice(APIS).map((w) => w.waitForLog('worker started', (l) => l.msg === 'worker started', 120_000)),
    ]);
    // Still up a moment later, with nothing logged as an error (start-up work that failed in the
    // background, such as the first housekeeping run, would show here).
    await new Promise((r) => setTimeout(r, 1_500));
    for (const p of procs) {
      expect(p.child.exitCode, `${p.name} exited:\n${p.text.join('\n')}`).toBeNull();
      expect(
        p.logs.filter((l) => Number(l.level) >= 50),
        p.name,
      ).toEqual([]);
    }
    return { apis, procs };
  }

  async function stopAll(procs: RunningProcess[]) {
    const codes = await Promise.all(procs.map((p) => p.stop()));
    expect(codes).toEqual(procs.map(() => 0));
  }

  const logged = (procs: RunningProcess[], msg: string) => procs.flatMap((p) => p.logs.filter((l) => l.msg === msg));

  async function database(): Promise<DbHandle> {
    handle ??= await openDatabase(
      { database: pg ? { kind: 'postgres', url: pg.url } : { kind: 'sqlite', file: path.join(sharedDir, 'reelhouse.db') } },
      { migrate: false },
    );
    return handle;
  }

  const users = async () => (await database()).db.selectFrom('users').select(['username', 'email', 'role', 'is_demo']).orderBy('username').execute();

  const signIn = (api: ApiClient, email: string, password: string) => api.call('POST', '/api/v1/users/login', { email, password });

  beforeAll(async () => {
    const built = buildServer();
    if (testDialect === 'postgres') pg = await createPgDatabase();
    else sharedDir = await newDir();
    await built;
  }, 240_000);

  afterAll(async () => {
    await Promise.all(started.map((p) => p.kill()));
    await handle?.close();
    await pg?.drop();
    for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
  });

  it('all come up on the fresh database, which gets its tables and one demo account', async () => {
    const { apis, procs } = await startAll({ DEMO_PASSWORD: 'first-demo-password', ADMIN_EMAILS: 'nobody@start-up.test' });

    expect(await users()).toEqual([{ username: 'demo', email: DEMO_EMAIL, role: 'user', is_demo: 1 }]);
    expect(logged(procs, 'demo account created')).toHaveLength(1);
    // Every API process serves the one account.
    for (const api of apis) expect((await signIn(api, DEMO_EMAIL, 'first-demo-password')).status).toBe(200);

    expect(logged(procs, 'accounts made admins from ADMIN_EMAILS')).toHaveLength(0);
    // An account for the next start's ADMIN_EMAILS grant, signed up before that setting names it.
    const form = new FormData();
    for (const [k, v] of Object.entries(OWNER)) form.append(k, v);
    const reg = await apis[1]!.call('POST', '/api/v1/users/register', form);
    expect(reg.status, JSON.stringify(reg.json)).toBe(201);
    await stopAll(procs);
  }, 240_000);

  it('all come up again at once: the changed demo password applies and the ADMIN_EMAILS grant is made once', async () => {
    const { apis, procs } = await startAll({ DEMO_PASSWORD: 'second-demo-password', ADMIN_EMAILS: `${OWNER.email},nobody@start-up.test` });

    expect(await users()).toEqual([
      { username: 'demo', email: DEMO_EMAIL, role: 'user', is_demo: 1 },
      { username: OWNER.username, email: OWNER.email, role: 'admin', is_demo: 0 },
    ]);
    expect(logged(procs, 'demo account created')).toHaveLength(0);
    const grants = logged(procs, 'accounts made admins from ADMIN_EMAILS');
    expect(grants.map((l) => l.promoted)).toEqual([1]);
    for (const api of apis) {
      expect((await signIn(api, DEMO_EMAIL, 'second-demo-password')).status).toBe(200);
      expect((await signIn(api, DEMO_EMAIL, 'first-demo-password')).status).toBe(401);
    }
    await stopAll(procs);
  }, 240_000);
});
