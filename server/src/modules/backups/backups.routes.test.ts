import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffCallers } from '../../../test/support/staff.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';

const API = '/api/v1';
let t: TestApp;
let staff: Awaited<ReturnType<typeof staffCallers>>;
beforeAll(async () => {
  // Jobs run in this app, as in a site's one process: the backup an admin asks for is really taken.
  t = await createTestApp({ serveSourceAsIs: false, env: { BACKUP_CRON: '15 4 * * *', BACKUP_KEEP: '3' } });
  staff = await staffCallers(t);
});
afterAll(async () => {
  await t?.close();
});

const backupsOf = (as = staff.admin) => t.call({ method: 'GET', url: `${API}/admin/backups`, as });

describe('backups routes refuse everyone but admins', () => {
  it.each([
    ['GET', '/admin/backups'],
    ['POST', '/admin/backups'],
  ])('%s %s', async (method, url) => {
    const call = (as?: typeof staff.user) => t.call({ method: method as 'GET', url: `${API}${url}`, as });
    expect((await call()).statusCode).toBe(401);
    expect((await call(staff.user)).statusCode).toBe(403);
    const mod = await call(staff.moderator);
    expect(mod.statusCode).toBe(403);
    expect(mod.message).toBe('Only admins may do that');
  });
});

describe('GET /admin/backups', () => {
  it('says when the next scheduled backup is due, how many are kept and where they go, before any was taken', async () => {
    const res = await backupsOf();
    expect(res.statusCode).toBe(200);
    expect(res.message).toBe('Backups fetched');
    const next = new Date(res.data.schedule.next);
    expect([next.getHours(), next.getMinutes()]).toEqual([4, 15]);
    expect(res.data.schedule).toMatchObject({ cron: '15 4 * * *', keep: 3, dir: path.join(t.dataDir, 'backups') });
    expect(res.data.lastGood).toBeNull();
    expect(res.data.backups).toEqual([]);
  });
});

describe('POST /admin/backups', () => {
  it('takes a backup in the process that runs jobs: reported running, then good with its size and time, and in the audit log', async () => {
    const res = await t.call({ method: 'POST', url: `${API}/admin/backups`, as: staff.admin });
    expect(res.statusCode).toBe(202);
    expect(res.message).toBe('Backup started');
    await expect
      .poll(async () => (await backupsOf()).data.lastGood, { timeout: 60_000, interval: 200 })
      .toMatchObject({ trigger: 'manual', status: 'ok', error: null, removed: false });
    const { data } = await backupsOf();
    const good = data.lastGood;
    expect(data.backups[0]).toEqual(good);
    expect(good.bytes).toBeGreaterThan(0);
    expect(good.tookMs).toBeGreaterThanOrEqual(0);
    expect(new Date(good.finishedAt).getTime()).toBeGreaterThanOrEqual(new Date(good.startedAt).getTime());
    // The folder is there under BACKUP_DIR, with its manifest.
    expect(path.dirname(good.path)).toBe(path.join(t.dataDir, 'backups'));
    const manifest = JSON.parse(await fs.readFile(path.join(good.path, 'manifest.json'), 'utf8'));
    expect(manifest).toBeTruthy();
    const audit = await t.ctx.db.selectFrom('audit_log').select(['action', 'actor_id']).where('action', '=', 'backup.start').execute();
    expect(audit).toEqual([{ action: 'backup.start', actor_id: staff.admin.id }]);
  });

  it('is refused while a backup is running', async () => {
    const now = Date.now();
    await t.ctx.db
      .insertInto('backup_runs')
      .values({
        id: 'still-running',
        trigger: 'scheduled',
        status: 'running',
        path: '/somewhere.partial',
        slot: null,
        owner: 'this-process',
        started_at: now,
        finished_at: null,
        bytes: null,
        error: null,
        removed_at: null,
      })
      .execute();
    try {
      const res = await t.call({ method: 'POST', url: `${API}/admin/backups`, as: staff.admin });
      expect(res.statusCode).toBe(409);
      expect(res.message).toBe('A backup is already running');
      expect((await backupsOf()).data.backups[0]).toMatchObject({ _id: 'still-running', status: 'running', finishedAt: null, tookMs: null, bytes: null });
    } finally {
      await t.ctx.db.deleteFrom('backup_runs').where('id', '=', 'still-running').execute();
    }
  });

  it('lists failed backups with their reason, newest first', async () => {
    const now = Date.now() + 1000;
    await t.ctx.db
      .insertInto('backup_runs')
      .values({
        id: 'failed-one',
        trigger: 'scheduled',
        status: 'failed',
        path: '/x.partial',
        slot: null,
        owner: 'gone',
        started_at: now,
        finished_at: now + 5,
        bytes: null,
        error: 'interrupted',
        removed_at: null,
      })
      .execute();
    const { data } = await backupsOf();
    expect(data.backups[0]).toMatchObject({ _id: 'failed-one', status: 'failed', error: 'interrupted', tookMs: 5 });
    expect(data.lastGood.status).toBe('ok');
  });
});
