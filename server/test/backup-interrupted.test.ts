import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BACKUP_JS, makeTestMedia, queryRows, RESTORE_JS, runCli, type Site, startCli, startSite, startSiteWithVideo, tmpDir } from './support/backup-site.js';
import { ApiClient, buildServer } from './support/processes.js';

/**
 * A backup killed with SIGKILL midway is never taken for a good one: its run is reported failed
 * ("interrupted") after the next start, its partial folder is removed, and a restore refuses it.
 */
let clips = '';
const dirs: string[] = [];
const sites: Site[] = [];
beforeAll(async () => {
  clips = await tmpDir('reelhouse-backup-kill-clips-');
  dirs.push(clips);
  await Promise.all([buildServer(), makeTestMedia(clips, { 'small.mp4': { width: 320, height: 180, seconds: 2 } })]);
}, 300_000);
afterAll(async () => {
  for (const s of sites) await s.stop();
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

const FILES = 1500;
const FILE_BYTES = 128 * 1024;

/** A site with one video whose prefix holds many files (about 190 MB), so that linking and summing them takes a while. */
async function siteWithManyFiles(label: string, extraEnv: Record<string, string> = {}) {
  const dataDir = await tmpDir(`reelhouse-backup-kill-${label}-`);
  dirs.push(dataDir);
  const env = { DATA_DIR: dataDir, ...extraEnv };
  const db = { file: path.join(dataDir, 'reelhouse.db') };
  const { site, videoId: id } = await startSiteWithVideo(label, env, clips, 'big catalogue');
  sites.push(site);
  const extra = path.join(dataDir, 'media', 'videos', id, 'extra');
  await fs.mkdir(extra, { recursive: true });
  const chunk = randomBytes(FILE_BYTES);
  for (let i = 0; i < FILES; i++) await fs.writeFile(path.join(extra, `part-${i}.bin`), chunk);
  return { env, db, site, backups: path.join(dataDir, 'backups') };
}

/** Waits until the next start has marked the one run failed ("interrupted") and removed its partial folder. */
async function settled(db: { file: string }, backups: string) {
  const end = Date.now() + 30_000;
  for (;;) {
    const [run] = await queryRows<{ status: string; error: string | null }>(db, 'SELECT status, error FROM backup_runs');
    const partials = (await fs.readdir(backups)).filter((n) => n.endsWith('.partial'));
    if (run?.status === 'failed' && partials.length === 0) {
      expect(run.error).toBe('interrupted');
      return;
    }
    if (Date.now() > end) throw new Error(`not settled: ${JSON.stringify(run)} ${partials.join()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

it('a backup killed midway is reported failed after the next start, its partial folder goes, and restore refuses it', async () => {
  const { env, db, site, backups } = await siteWithManyFiles('site');
  const backup = startCli(BACKUP_JS, [], env);
  // The first progress line of the media phase: the partial folder exists and files are being linked.
  const deadline = Date.now() + 60_000;
  while (!/^media: /m.test(backup.out.stderr)) {
    if (backup.child.exitCode !== null || Date.now() > deadline) throw new Error(`backup never reached its media: ${backup.out.stderr}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  backup.child.kill('SIGKILL');
  const killed = await backup.done;
  expect(killed.code).toBeNull();
  const left = await fs.readdir(backups);
  // Killed before the end: only the partial folder is there.
  expect(left, 'the backup finished before it was killed').toHaveLength(1);
  expect(left[0]).toMatch(/^reelhouse-\d{8}-\d{6}-manual\.partial$/);
  const partial = path.join(backups, left[0]!);
  expect(await queryRows(db, 'SELECT status, error FROM backup_runs')).toEqual([{ status: 'running', error: null }]);

  const refused = await runCli(RESTORE_JS, [partial], { DATA_DIR: await tmpDir('reelhouse-backup-kill-target-') });
  expect(refused.code).toBe(1);
  expect(refused.stderr.trim()).toBe(`Restore failed: ${partial} is an unfinished backup (its name ends in .partial): it cannot be restored`);
  const noManifest = path.join(backups, 'reelhouse-20260101-000000-manual');
  await fs.mkdir(noManifest);
  const refused2 = await runCli(RESTORE_JS, [noManifest], { DATA_DIR: await tmpDir('reelhouse-backup-kill-target-') });
  expect(refused2.stderr.trim()).toBe(`Restore failed: ${noManifest} is not a finished backup: it has no manifest.json`);
  const typo = path.join(backups, 'reelhouse-no-such-backup');
  const refused3 = await runCli(RESTORE_JS, [typo], { DATA_DIR: await tmpDir('reelhouse-backup-kill-target-') });
  expect(refused3.code).toBe(1);
  expect(refused3.stderr.trim()).toBe(`Restore failed: ${typo} does not exist`);
  await fs.rm(noManifest, { recursive: true });

  // The next start settles it.
  await site.stop();
  const again = await startSite('site (restarted)', env);
  sites.push(again);
  await settled(db, backups);

  // And a backup taken now is good.
  const good = await runCli(BACKUP_JS, [], env);
  expect(good.code, good.stderr).toBe(0);
  expect(await queryRows(db, 'SELECT status FROM backup_runs ORDER BY started_at')).toEqual([{ status: 'failed' }, { status: 'ok' }]);
}, 600_000);

it('the server killed while it takes a backup an admin asked for: the run is reported failed, in the admin area too, and nothing of it is left', async () => {
  const { env, db, site, backups } = await siteWithManyFiles('server', { ADMIN_EMAILS: 'boss@example.com' });
  const boss = new ApiClient(site.api.base);
  const form = new FormData();
  for (const [k, v] of Object.entries({ username: 'boss', email: 'boss@example.com', password: 'correct-horse-1', fullName: 'The Boss' })) form.append(k, v);
  expect((await boss.call('POST', '/api/v1/users/register', form)).status).toBe(201);
  const login = await boss.call('POST', '/api/v1/users/login', { email: 'boss@example.com', password: 'correct-horse-1' }, { 'x-return-tokens': 'true' });
  boss.accessToken = login.json.data.accessToken;

  expect((await boss.call('POST', '/api/v1/admin/backups')).status).toBe(202);
  // Killed once the run is recorded and its partial folder is being filled.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [run] = await queryRows<{ status: string }>(db, 'SELECT status FROM backup_runs');
    const partials = await fs.readdir(backups).then(
      (names) => names.filter((n) => n.endsWith('.partial')),
      () => [],
    );
    if (run?.status === 'running' && partials.length === 1) break;
    if (run && run.status !== 'running') throw new Error(`the backup ended before the server could be killed: ${run.status}`);
    if (Date.now() > deadline) throw new Error('the backup never started');
    await new Promise((r) => setTimeout(r, 5));
  }
  await site.proc.kill();
  expect(await queryRows(db, 'SELECT status FROM backup_runs')).toEqual([{ status: 'running' }]);

  const again = await startSite('server (restarted)', env);
  sites.push(again);
  await settled(db, backups);
  // The same session, on the restarted server.
  const bossAgain = new ApiClient(again.api.base);
  bossAgain.accessToken = boss.accessToken;
  const report = (await bossAgain.call('GET', '/api/v1/admin/backups')).json.data;
  expect(report.lastGood).toBeNull();
  expect(report.backups).toHaveLength(1);
  expect(report.backups[0]).toMatchObject({ trigger: 'manual', status: 'failed', error: 'interrupted', bytes: null });
  expect(await fs.readdir(backups)).toEqual([]);
  // The site's media were only linked from: every file is still there.
  const [video] = await queryRows<{ id: string }>(db, 'SELECT id FROM videos');
  expect(await fs.readdir(path.join(env.DATA_DIR, 'media', 'videos', video!.id, 'extra'))).toHaveLength(FILES);
}, 600_000);
