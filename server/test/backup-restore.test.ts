import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_JS, filesUnder, makeTestMedia, queryRows, RESTORE_JS, runCli, type Site, startSite, tmpDir, waitReady } from './support/backup-site.js';
import { createPgDatabase } from './support/databases.js';
import { fetchEverything, type VideoUrls } from './support/playback.js';
import { ApiClient, buildServer, clipUploadForm } from './support/processes.js';
import { migrations } from '../src/db/migrations.js';

/** The last migration a fresh database applies: the schema version a backup of it names. */
const latestMigration = Object.keys(migrations('sqlite')).sort().at(-1);

/**
 * `npm run backup` while the site takes writes (comments, likes, uploads, a video in its ladder),
 * then `npm run restore` into a fresh data directory (and database): the restored site has every
 * row committed before the backup began, nothing that was never committed, and every file its rows
 * own, served. On SQLite and on PostgreSQL, media on local disk.
 */
let clips = '';
const dirs: string[] = [];
const drops: (() => Promise<void>)[] = [];
const sites: Site[] = [];
beforeAll(async () => {
  clips = await tmpDir('reelhouse-backup-clips-');
  dirs.push(clips);
  await Promise.all([
    buildServer(),
    makeTestMedia(clips, { 'small.mp4': { width: 320, height: 180, seconds: 2 }, 'long.mp4': { width: 640, height: 360, seconds: 10 } }),
  ]);
}, 300_000);
afterAll(async () => {
  for (const s of sites) await s.stop();
  for (const d of drops) await d().catch(() => {});
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

type DbRef = { file: string } | { url: string };
const TABLES = {
  users: 'SELECT id AS k FROM users',
  videos: 'SELECT id AS k FROM videos',
  comments: 'SELECT id AS k FROM comments',
  likes: `SELECT user_id || ':' || target_type || ':' || target_id AS k FROM likes`,
} as const;
type Ids = Record<keyof typeof TABLES, Set<string>>;

async function idsOf(db: DbRef): Promise<Ids> {
  const out = {} as Ids;
  for (const [table, query] of Object.entries(TABLES)) out[table as keyof Ids] = new Set((await queryRows<{ k: string }>(db, query)).map((r) => r.k));
  return out;
}
const missingFrom = (a: Set<string>, b: Set<string>) => [...a].filter((x) => !b.has(x));

async function upload(api: ApiClient, clip: string, title: string): Promise<string> {
  const res = await api.call('POST', '/api/v1/videos/', await clipUploadForm(clips, clip, title, 'backed up'));
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.data._id as string;
}

async function newDatabase(kind: 'sqlite' | 'postgres', dataDir: string): Promise<{ env: Record<string, string>; db: DbRef }> {
  if (kind === 'sqlite') return { env: { DATA_DIR: dataDir }, db: { file: path.join(dataDir, 'reelhouse.db') } };
  const pg = await createPgDatabase();
  drops.push(pg.drop);
  return { env: { DATA_DIR: dataDir, DATABASE_URL: pg.url }, db: { url: pg.url } };
}

describe.each(['sqlite', 'postgres'] as const)('backup and restore on %s, media on local disk', (kind) => {
  let folder = '';
  let restored: { env: Record<string, string>; db: DbRef } | null = null;

  it('backs up while the site takes writes; the restored site has every row committed before, and their files', async () => {
    const source = await newDatabase(kind, await tmpDir('reelhouse-backup-source-'));
    dirs.push(source.env.DATA_DIR!);
    const backups = await tmpDir('reelhouse-backups-');
    dirs.push(backups);
    const site = await startSite(`source on ${kind}`, source.env);
    sites.push(site);
    const alice = new ApiClient(site.api.base);
    const bob = new ApiClient(site.api.base);
    await alice.signUp();
    await bob.signUp();
    const avatar = new FormData();
    avatar.append('avatar', new File([await fs.readFile(path.join(clips, 'thumb.png'))], 'a.png', { type: 'image/png' }));
    expect((await alice.call('PATCH', '/api/v1/users/change-avatar', avatar)).status).toBe(200);
    const ready = [await upload(alice, 'small.mp4', 'first'), await upload(alice, 'small.mp4', 'second')];
    for (const id of ready) await waitReady(alice, id);
    for (const id of ready) {
      const c = await bob.call('POST', `/api/v1/comments/${id}`, { content: `on ${id}` });
      expect(c.status).toBe(201);
      expect((await bob.call('POST', `/api/v1/likes/toggle/video/${id}`)).status).toBe(200);
      expect((await alice.call('POST', `/api/v1/likes/toggle/comment/${c.json.data._id}`)).status).toBe(200);
    }
    // In its ladder while the backup runs.
    const busy = await upload(alice, 'long.mp4', 'transcoding');
    const before = await idsOf(source.db);

    let writing = true;
    let writes = 0;
    let writerEnded = false;
    const writer = (async () => {
      try {
        for (let i = 0; writing; i++) {
          const c = await bob.call('POST', `/api/v1/comments/${ready[i % 2]}`, { content: `during ${i}` });
          if (c.status !== 201) throw new Error(`comment: ${c.status}`);
          await alice.call('POST', `/api/v1/likes/toggle/comment/${c.json.data._id}`);
          if (i % 4 === 0) await upload(bob, 'small.mp4', `during ${i}`);
          writes++;
        }
      } finally {
        writerEnded = true;
      }
    })();
    const run = await runCli(BACKUP_JS, ['--to', backups], source.env);
    // One more round of writes once the backup has ended, so that some surely came after its snapshot
    // (a quick backup can otherwise fall between two of the writer's rounds).
    const writesAtEnd = writes;
    while (writes === writesAtEnd && !writerEnded) await new Promise((r) => setTimeout(r, 20));
    writing = false;
    await writer;
    expect(run.code, run.stderr).toBe(0);
    expect(writes).toBeGreaterThan(0);
    folder = /^Backup written to (\S+): .+ in [\d.]+ s$/m.exec(run.stdout)?.[1] ?? '';
    expect(path.basename(folder)).toMatch(/^reelhouse-\d{8}-\d{6}-manual$/);
    expect((await fs.readdir(backups)).filter((n) => n.endsWith('.partial'))).toEqual([]);
    const after = await idsOf(source.db);
    await site.stop();

    const target = await newDatabase(kind, await tmpDir('reelhouse-backup-restored-'));
    dirs.push(target.env.DATA_DIR!);
    restored = target;
    const back = await runCli(RESTORE_JS, [folder], target.env);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toMatch(/^Restored the backup of /m);

    // Rows: all those committed before the backup began, none that never were, as the manifest counts them.
    const manifest = JSON.parse(await fs.readFile(path.join(folder, 'manifest.json'), 'utf8'));
    const got = await idsOf(target.db);
    for (const table of Object.keys(TABLES) as (keyof Ids)[]) {
      expect(missingFrom(before[table], got[table]), `${table} committed before the backup`).toEqual([]);
      expect(missingFrom(got[table], after[table]), `${table} never committed`).toEqual([]);
      expect(got[table].size, table).toBe(manifest.database.rows[table]);
    }
    // The writes went on past the snapshot: some are in the source and not in the backup.
    expect(after.comments.size).toBeGreaterThan(got.comments.size);
    for (const [table, n] of Object.entries(manifest.database.rows as Record<string, number>)) {
      const [row] = await queryRows<{ n: number | string }>(target.db, `SELECT count(*) AS n FROM ${table}`);
      expect(Number(row!.n), `rows of ${table}`).toBe(n);
    }
    if (kind === 'sqlite') expect(await queryRows(target.db, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    expect(await queryRows(target.db, `SELECT status, path FROM backup_runs WHERE id = '${manifest.id}'`)).toEqual([{ status: 'ok', path: folder }]);
    expect(manifest).toMatchObject({ format: 1, app: '0.1.0', schema: latestMigration, trigger: 'manual', database: { kind } });

    // Files: exactly those of the manifest, each owned by a restored row; every restored video's and user's files are there.
    const list = (await fs.readFile(path.join(folder, 'media.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).key as string);
    const media = (await filesUnder(path.join(target.env.DATA_DIR!, 'media'))).filter((f) => !f.startsWith('.tmp/'));
    expect(media).toEqual(list);
    expect(manifest.media).toMatchObject({ kind: 'local', files: list.length });
    for (const key of media) {
      const [prefix, id] = key.split('/');
      expect(prefix === 'videos' ? got.videos.has(id!) : got.users.has(id!), key).toBe(true);
    }
    for (const id of got.videos)
      expect(
        media.some((k) => k.startsWith(`videos/${id}/`)),
        `files of video ${id}`,
      ).toBe(true);

    // Served by the restored site: the signing secret came back with the database, so the same tokens sign in.
    const site2 = await startSite(`restored on ${kind}`, target.env);
    sites.push(site2);
    const aliceThere = new ApiClient(site2.api.base);
    aliceThere.accessToken = alice.accessToken;
    for (const id of ready) {
      const v = await aliceThere.call('GET', `/api/v1/videos/${id}`);
      expect(v.status).toBe(200);
      await fetchEverything(aliceThere, v.json.data as VideoUrls);
      const comments = await aliceThere.call('GET', `/api/v1/comments/${id}?limit=100`);
      expect(comments.status).toBe(200);
      expect(JSON.stringify(comments.json)).toContain(`on ${id}`);
    }
    expect((await aliceThere.call('GET', `/api/v1/videos/${busy}`)).status).toBe(200);
    const me = await aliceThere.call('GET', '/api/v1/users/user/current');
    expect(me.status).toBe(200);
    expect((await aliceThere.fetchBytes(me.json.data.avatar.url)).status).toBe(200);
    await site2.stop();
  }, 900_000);

  it('refuses a target that is not empty, and a damaged backup, writing nothing', async () => {
    expect(folder && restored, 'the backup of the test before').toBeTruthy();
    const dbFile = path.join(restored!.env.DATA_DIR!, 'reelhouse.db');
    const stamp = kind === 'sqlite' ? (await fs.stat(dbFile)).mtimeMs : 0;
    const again = await runCli(RESTORE_JS, [folder], restored!.env);
    expect(again.code).toBe(1);
    expect(again.stderr.trim().split('\n').pop()).toMatch(/^Restore failed: the target is not empty: .*; restore with --force to replace it$/);
    if (kind === 'sqlite') expect((await fs.stat(dbFile)).mtimeMs).toBe(stamp);
    // --force replaces it, with the same rows as before.
    const rowsBefore = await idsOf(restored!.db);
    const forced = await runCli(RESTORE_JS, [folder, '--force'], restored!.env);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await idsOf(restored!.db)).toEqual(rowsBefore);

    // A real copy (not links to the first backup's files), with one byte of one media file flipped.
    const damaged = `${folder}-damaged`;
    await fs.cp(folder, damaged, { recursive: true });
    dirs.push(damaged);
    const key = (await fs.readFile(path.join(damaged, 'media.jsonl'), 'utf8')).split('\n').map((l) => l && JSON.parse(l).key)[0] as string;
    const victim = path.join(damaged, 'media', ...key.split('/'));
    const bytes = await fs.readFile(victim);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    await fs.writeFile(victim, bytes);
    const fresh = await newDatabase(kind, await tmpDir('reelhouse-backup-untouched-'));
    dirs.push(fresh.env.DATA_DIR!);
    const refused = await runCli(RESTORE_JS, [damaged, '--force'], fresh.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`media/${key} does not match its checksum`);
    expect(await fs.readdir(fresh.env.DATA_DIR!)).toEqual([]);
    if ('url' in fresh.db) expect(await queryRows(fresh.db, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).toEqual([]);
  }, 120_000);
});
