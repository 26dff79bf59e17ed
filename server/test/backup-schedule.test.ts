import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, buildServer, freePort, MAIN_JS, type RunningProcess, startProcess, waitForHealthy } from './support/processes.js';

/**
 * The site's one process (SQLite, local media, jobs in-process) takes backups on BACKUP_CRON's
 * schedule, keeps the newest BACKUP_KEEP of them, and reports them in the admin area. The schedule
 * here fires every two seconds (a pattern with a seconds field) so that a few turns pass in a test.
 */

let dataDir = '';
let proc: RunningProcess;
let admin: ApiClient;
const KEEP = 2;

beforeAll(async () => {
  await buildServer();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-backup-schedule-'));
  const port = await freePort();
  proc = startProcess('api', MAIN_JS, {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    DEMO_ACCOUNT: 'false',
    LOG_LEVEL: 'info',
    ADMIN_EMAILS: 'boss@example.com',
    BACKUP_CRON: '*/2 * * * * *',
    BACKUP_KEEP: String(KEEP),
  });
  admin = new ApiClient(`http://127.0.0.1:${port}`);
  await waitForHealthy(admin, proc);
  const form = new FormData();
  for (const [k, v] of Object.entries({ username: 'boss', email: 'boss@example.com', password: 'correct-horse-1', fullName: 'The Boss' })) form.append(k, v);
  expect((await admin.call('POST', '/api/v1/users/register', form)).status).toBe(201);
  const login = await admin.call('POST', '/api/v1/users/login', { email: 'boss@example.com', password: 'correct-horse-1' }, { 'x-return-tokens': 'true' });
  admin.accessToken = login.json.data.accessToken;
}, 240_000);
afterAll(async () => {
  await proc?.stop();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

describe('scheduled backups', () => {
  it('are taken at each turn, the newest BACKUP_KEEP kept and the older ones removed, as the admin area reports', async () => {
    const backups = async () => (await admin.call('GET', '/api/v1/admin/backups')).json.data;
    await expect
      .poll(async () => (await backups()).backups.filter((b: { trigger: string; status: string }) => b.trigger === 'scheduled' && b.status === 'ok').length, {
        timeout: 60_000,
        interval: 500,
      })
      .toBeGreaterThanOrEqual(KEEP + 2);
    const data = await backups();
    expect(data.schedule).toMatchObject({ cron: '*/2 * * * * *', keep: KEEP, dir: path.join(dataDir, 'backups') });
    const next = new Date(data.schedule.next).getTime();
    expect(next - Date.now()).toBeLessThanOrEqual(2500);
    const scheduled = data.backups.filter((b: { trigger: string; status: string }) => b.trigger === 'scheduled' && b.status === 'ok');
    // Retention runs after each good backup: at most the one just finished is past the kept number.
    const kept = scheduled.filter((b: { removed: boolean }) => !b.removed);
    expect(kept.length).toBeGreaterThanOrEqual(KEEP);
    expect(kept.length).toBeLessThanOrEqual(KEEP + 1);
    expect(scheduled.filter((b: { removed: boolean }) => b.removed).length).toBeGreaterThanOrEqual(1);
    // Kept ones are on disk with their manifest; removed ones are gone; every turn was taken once.
    for (const b of scheduled) {
      const there = await fs.stat(path.join(b.path, 'manifest.json')).then(
        () => true,
        () => false,
      );
      expect(there, b.path).toBe(!b.removed);
    }
    const starts = scheduled.map((b: { startedAt: string }) => b.startedAt);
    expect(new Set(starts).size).toBe(starts.length);
    expect(data.lastGood).toEqual(scheduled[0]);
    expect(data.backups.some((b: { status: string }) => b.status === 'failed')).toBe(false);
  }, 90_000);
});
