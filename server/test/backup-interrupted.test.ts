import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BACKUP_JS, makeTestMedia, queryRows, RESTORE_JS, runCli, type Site, startCli, startSite, tmpDir, waitReady } from './support/backup-site.js';
import { ApiClient, buildServer, clipUploadForm } from './support/processes.js';

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

it('a backup killed midway is reported failed after the next start, its partial folder goes, and restore refuses it', async () => {
  const dataDir = await tmpDir('reelhouse-backup-kill-');
  dirs.push(dataDir);
  const env = { DATA_DIR: dataDir };
  const db = { file: path.join(dataDir, 'reelhouse.db') };
  const site = await startSite('site', env);
  sites.push(site);
  const alice = new ApiClient(site.api.base);
  await alice.signUp();
  const up = await alice.call('POST', '/api/v1/videos/', await clipUploadForm(clips, 'small.mp4', 'big catalogue', 'many files'));
  expect(up.status).toBe(201);
  const id = up.json.data._id as string;
  await waitReady(alice, id);
  // A video prefix with many files (about 190 MB), so that linking and summing them takes a while.
  const extra = path.join(dataDir, 'media', 'videos', id, 'extra');
  await fs.mkdir(extra, { recursive: true });
  const chunk = randomBytes(FILE_BYTES);
  for (let i = 0; i < FILES; i++) await fs.writeFile(path.join(extra, `part-${i}.bin`), chunk);

  const backups = path.join(dataDir, 'backups');
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
  await fs.rm(noManifest, { recursive: true });

  // The next start settles it.
  await site.stop();
  const again = await startSite('site (restarted)', env);
  sites.push(again);
  const end = Date.now() + 30_000;
  for (;;) {
    const [run] = await queryRows<{ status: string; error: string | null }>(db, 'SELECT status, error FROM backup_runs');
    const partials = (await fs.readdir(backups)).filter((n) => n.endsWith('.partial'));
    if (run?.status === 'failed' && partials.length === 0) {
      expect(run.error).toBe('interrupted');
      break;
    }
    if (Date.now() > end) throw new Error(`not settled: ${JSON.stringify(run)} ${partials.join()}`);
    await new Promise((r) => setTimeout(r, 200));
  }

  // And a backup taken now is good.
  const good = await runCli(BACKUP_JS, [], env);
  expect(good.code, good.stderr).toBe(0);
  expect(await queryRows(db, 'SELECT status FROM backup_runs ORDER BY started_at')).toEqual([{ status: 'failed' }, { status: 'ok' }]);
}, 600_000);
