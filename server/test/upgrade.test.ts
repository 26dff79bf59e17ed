import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations.js';
import { makeClip } from '../src/media/fixtures.js';
import { createPgDatabase } from './support/databases.js';
import { buildOldRelease, type OldRelease } from './support/old-release.js';
import { fetchEverything, type VideoUrls } from './support/playback.js';
import { ApiClient, buildServer, clipUploadForm, freePort, MAIN_JS, type RunningProcess, startProcess, waitForHealthy } from './support/processes.js';

/**
 * A site made by an earlier release, started by the current code: it migrates (backing the database
 * up first), and serves what the old one made: the video and its media, accounts that sign in, the
 * sessions that were signed in, a comment, a like, a subscription and a playlist. Before that, a
 * start whose backup cannot be written, and one whose migration fails, stop with one line and leave
 * the database as it was.
 *
 * The release of the bounded up next and trending (migrations up to 0037): the earliest commit that
 * builds with today's npm packages (the ones before import @fastify/helmet, since removed). The
 * migrations that came after it include ones that fill a table from the rows already there.
 */
const OLD_COMMIT = 'c2ac1f5fe7c02b543d82709c72b29056aa0ad0b2';
/** What the old release had not applied: every migration after its last, 0037, whatever has been added since. */
const LATER_MIGRATIONS = Object.keys(migrations('sqlite'))
  .filter((name) => name > '0037_related_rankings')
  .sort();
const PASSWORD = 'correct-horse-1';

let old: OldRelease | null = null;
let clipsDir = '';
const running: RunningProcess[] = [];

beforeAll(async () => {
  clipsDir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-upgrade-clips-'));
  const [release] = await Promise.all([
    buildOldRelease(OLD_COMMIT),
    buildServer(),
    makeClip(process.env.FFMPEG_PATH ?? 'ffmpeg', path.join(clipsDir, 'clip.mp4'), { width: 320, height: 180, seconds: 3 }),
    sharp({ create: { width: 160, height: 90, channels: 3, background: { r: 30, g: 120, b: 60 } } })
      .png()
      .toFile(path.join(clipsDir, 'thumb.png')),
  ]);
  old = release;
}, 300_000);
afterAll(async () => {
  await Promise.all(running.map((p) => p.kill()));
  await old?.remove();
  if (clipsDir) await fs.rm(clipsDir, { recursive: true, force: true });
});

interface Person {
  id: string;
  email: string;
  cookies: string;
}

/** A browser's session: signs up and in with the sign-in cookies, as the web client does. */
async function signUp(api: ApiClient, username: string): Promise<Person> {
  const form = new FormData();
  const email = `${username}@example.com`;
  for (const [k, v] of Object.entries({ username, email, password: PASSWORD, fullName: `${username} Person` })) form.append(k, v);
  const reg = await api.call('POST', '/api/v1/users/register', form);
  expect(reg.status, JSON.stringify(reg.json)).toBe(201);
  const res = await fetch(`${api.base}/api/v1/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  const cookies = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  expect(cookies).toMatch(/accessToken=.*refreshToken=|refreshToken=.*accessToken=/);
  return { id: ((await res.json()) as { data: { user: { _id: string } } }).data.user._id, email, cookies };
}

interface Site {
  env: Record<string, string>;
  /** Tables, triggers and indexes, and the migrations recorded. */
  schema(): Promise<unknown>;
  plantConflict(): Promise<void>;
  removeConflict(): Promise<void>;
  checkBackup(log: Record<string, unknown>): Promise<void>;
  drop(): Promise<void>;
}

async function sqliteSite(dataDir: string): Promise<Site> {
  const file = path.join(dataDir, 'reelhouse.db');
  const withDb = async <T>(fn: (db: SQLite.Database) => T, filePath = file): Promise<T> => {
    const db = new SQLite(filePath, { fileMustExist: true });
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };
  return {
    env: {},
    schema: () =>
      withDb((db) => [
        db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all(),
        db.prepare('SELECT * FROM kysely_migration ORDER BY name').all(),
      ]),
    plantConflict: () => withDb((db) => void db.exec('CREATE TABLE search_words (planted integer)')),
    removeConflict: () => withDb((db) => void db.exec('DROP TABLE search_words')),
    async checkBackup(log) {
      const backup = String(log.backup);
      expect(backup).toMatch(new RegExp(`^${path.join(dataDir, 'backups')}/reelhouse-\\d{8}-\\d{6}-before-migration/database\\.sqlite$`));
      await withDb((db) => {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        // The copy is of the database as the old release left it.
        expect((db.prepare('SELECT count(*) AS n FROM kysely_migration').get() as { n: number }).n).toBe(21);
      }, backup);
    },
    drop: async () => {},
  };
}

async function postgresSite(): Promise<Site> {
  const database = await createPgDatabase();
  const query = async (text: string) => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    env: { DATABASE_URL: database.url, BACKUP_BEFORE_MIGRATE: 'true' },
    schema: async () => [
      await query(`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2`),
      await query(`SELECT indexname FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`),
      await query(`SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`),
      await query(`SELECT * FROM kysely_migration ORDER BY name`),
    ],
    plantConflict: async () => void (await query('CREATE TABLE search_words (planted integer)')),
    removeConflict: async () => void (await query('DROP TABLE search_words')),
    async checkBackup(log) {
      expect(String(log.backup)).toMatch(/\/reelhouse-\d{8}-\d{6}-before-migration\/database\.pgdump$/);
      expect((await fs.readFile(String(log.backup))).subarray(0, 5).toString()).toBe('PGDMP');
    },
    drop: () => database.drop(),
  };
}

describe.each([
  ['SQLite', sqliteSite, '0043_sqlite_search_words', 'table search_words already exists'],
  ['PostgreSQL', () => postgresSite(), '0038_search_words', 'relation "search_words" already exists'],
] as const)('a site of an earlier release on %s', (_name, makeSite, failing, reason) => {
  it('stops in one line with the database left as it was when the backup or a migration fails, then migrates and serves all it had', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-upgrade-'));
    const site = await makeSite(dataDir);
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const env = {
      ...site.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DEMO_ACCOUNT: 'false',
      ADMIN_EMAILS: 'boss@example.com',
      RATE_LIMIT_AUTH_PER_MINUTE: '10000',
      RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
    };
    const api = new ApiClient(origin);
    const start = (name: string, script: string, extra: Record<string, string> = {}) => {
      const proc = startProcess(name, script, { ...env, ...extra });
      running.push(proc);
      return proc;
    };
    try {
      // The old release makes the site.
      const oldServer = start('old release', old!.mainJs);
      await waitForHealthy(api, oldServer);
      const boss = await signUp(api, 'boss');
      const uploader = await signUp(api, 'uploader');
      const viewer = await signUp(api, 'viewer');
      // The sign-in cookies, from the site's own origin, as a browser sends them.
      const headers = (p: Person) => ({ cookie: p.cookies, origin });
      const call = (p: Person, method: string, url: string, body?: object | FormData) => api.call(method, url, body, headers(p));

      const up = await call(
        uploader,
        'POST',
        '/api/v1/videos/',
        await clipUploadForm(clipsDir, 'clip.mp4', 'Harbour lighthouse at dusk', 'Filmed before the upgrade'),
      );
      expect(up.status, JSON.stringify(up.json)).toBe(201);
      const videoId: string = up.json.data._id;
      await readyVideo(api, videoId, headers(uploader));
      expect((await call(viewer, 'POST', `/api/v1/comments/${videoId}`, { content: 'Made before the upgrade' })).status).toBe(201);
      expect((await call(viewer, 'POST', `/api/v1/likes/toggle/video/${videoId}`)).status).toBe(200);
      expect((await call(viewer, 'POST', `/api/v1/subscriptions/channel/${uploader.id}`)).status).toBe(200);
      const list = await call(viewer, 'POST', '/api/v1/playlist', { name: 'Kept list', description: 'From the old release' });
      expect(list.status, JSON.stringify(list.json)).toBe(201);
      const playlistId: string = list.json.data._id;
      expect((await call(viewer, 'PATCH', `/api/v1/playlist/add/${videoId}/${playlistId}`)).status).toBe(200);
      expect(await oldServer.stop()).toBe(0);

      // A backup that cannot be written: one line, exit 1, nothing migrated.
      const before = await site.schema();
      const blocker = path.join(dataDir, 'not-a-directory');
      await fs.writeFile(blocker, '');
      const unbacked = start('current code, failing backup', MAIN_JS, { BACKUP_DIR: blocker });
      expect(await unbacked.exited).toBe(1);
      expect(unbacked.text).toEqual([expect.stringMatching(/^Database backup before migrating failed: ENOTDIR: .*; nothing was migrated$/)]);
      expect(await site.schema()).toEqual(before);

      // A pending migration that cannot apply: one line, exit 1, nothing of any migration kept.
      await site.plantConflict();
      const planted = await site.schema();
      const failed = start('current code, failing migration', MAIN_JS);
      expect(await failed.exited).toBe(1);
      expect(failed.text).toEqual([`Database migration ${failing} failed: ${reason}; the database was left as it was`]);
      expect(await site.schema()).toEqual(planted);
      await site.removeConflict();

      // The current code migrates, backing the database up first.
      const server = start('current code', MAIN_JS);
      await waitForHealthy(api, server);
      const backedUp = await server.waitForLog('the backup before migrating', (l) => l.msg === 'database backed up before migrating');
      expect(backedUp.pending).toEqual(LATER_MIGRATIONS);
      await site.checkBackup(backedUp);

      const video = await readyVideo(api, videoId);
      await fetchEverything(api, video);
      const found = await api.call('GET', '/api/v1/videos/?query=lighthouse&pageNumber=1&pageSize=10');
      expect(found.json.data.videos.map((v: { _id: string }) => v._id)).toEqual([videoId]);

      // Sessions signed in before the upgrade go on, and every account signs in with its password.
      const me = await api.call('GET', '/api/v1/users/user/current', undefined, headers(viewer));
      expect(me.status, JSON.stringify(me.json)).toBe(200);
      expect(me.json.data._id).toBe(viewer.id);
      const refreshed = await api.call('POST', '/api/v1/users/refresh-token', undefined, headers(viewer));
      expect(refreshed.status, JSON.stringify(refreshed.json)).toBe(200);
      let bossToken = '';
      for (const p of [boss, uploader, viewer]) {
        const login = await api.call('POST', '/api/v1/users/login', { email: p.email, password: PASSWORD }, { 'x-return-tokens': 'true' });
        expect(login.status, p.email).toBe(200);
        expect(login.json.data.user.role).toBe(p === boss ? 'admin' : 'user');
        if (p === boss) bossToken = login.json.data.accessToken;
      }
      // The backup taken before migrating is in the admin area's list, good, with its size.
      const backups = await api.call('GET', '/api/v1/admin/backups', undefined, { authorization: `Bearer ${bossToken}` });
      expect(backups.json.data.backups).toEqual([
        expect.objectContaining({ trigger: 'before-migration', status: 'ok', path: path.dirname(String(backedUp.backup)), error: null }),
      ]);
      expect(backups.json.data.backups[0].bytes).toBeGreaterThan(0);

      // What people made is all there.
      const comments = await api.call('GET', `/api/v1/comments/${videoId}?pageNumber=1&pageSize=10`);
      expect(comments.json.data.comments.map((c: { content: string }) => c.content)).toEqual(['Made before the upgrade']);
      const like = await api.call('GET', `/api/v1/likes/${videoId}?contentType=video`, undefined, headers(viewer));
      expect(like.json.data, JSON.stringify(like.json)).toBe(true);
      const counted = await api.call('GET', `/api/v1/videos/${videoId}`, undefined, headers(viewer));
      expect(counted.json.data).toMatchObject({ likesCount: 1, commentsCount: 1, owner: { subscribersCount: 1, isSubscribed: true } });
      const channels = await api.call('GET', '/api/v1/subscriptions/user/channels?pageNumber=1&pageSize=10', undefined, headers(viewer));
      expect(channels.json.data.channels.map((c: { _id: string }) => c._id)).toEqual([uploader.id]);
      const playlist = await api.call('GET', `/api/v1/playlist/${playlistId}`, undefined, headers(viewer));
      expect(playlist.json.data.videos.map((v: { _id: string }) => v._id)).toEqual([videoId]);
      expect(await server.stop()).toBe(0);
    } finally {
      await site.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 600_000);
});

/** Waits for the video to be ready with its ladder and seek previews, and answers it. */
async function readyVideo(api: ApiClient, id: string, headers: Record<string, string> = {}): Promise<VideoUrls> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const res = await api.call('GET', `/api/v1/videos/${id}`, undefined, headers);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const video = res.json.data as VideoUrls & { progress: number };
    expect(video.status, JSON.stringify(res.json)).not.toBe('failed');
    if (video.status === 'ready' && video.hls && video.storyboard && video.progress === 100) return video;
    if (Date.now() > deadline) throw new Error(`video never became ready: ${JSON.stringify(video)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
