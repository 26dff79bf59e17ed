import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { makeClip } from '../src/media/fixtures.js';
import { createPgDatabase } from './support/databases.js';
import { ApiClient, buildServer, clipUploadForm, freePort, MAIN_JS, ROOT, startProcess, waitForHealthy } from './support/processes.js';
import { account, type Answers, captionForm, ok, readEverything, readMedia, signIn, siteEnv, type SiteFacts } from './support/site-reads.js';
import { TablePair } from './support/table-compare.js';

const CLI_JS = path.join(ROOT, 'server/dist/migrate-to-postgres-cli.js');
const CATALOGUE_JS = path.join(ROOT, 'bench/catalogue.mjs');
/** Tables each database keeps from the videos' rows itself: PostgreSQL makes its own, not copies. */
const REBUILT = ['page_bucket_versions', 'page_buckets', 'search_words'];

async function runCli(args: string[], dataDir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI_JS, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

let work = '';
let dataDir = '';
let port = 0;
let target: { url: string; drop(): Promise<void> } | null = null;
const extraDbs: { drop(): Promise<void> }[] = [];
let landmarks: Record<string, string> = {};
let people: SiteFacts['people'];
const videoIds: string[] = [];
let comment = '';
const facts = (): SiteFacts => ({ people, videoIds, comment, landmarks });
let before: Answers = {};
let media: Record<string, Buffer> = {};
let moved: { code: number; stdout: string; stderr: string };
/** bob's access token from the SQLite site: the signing secret and his session move with the data. */
let bobToken = '';

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-move-'));
  dataDir = path.join(work, 'data');
  await fs.mkdir(dataDir);
  await Promise.all([
    buildServer(),
    makeClip(process.env.FFMPEG_PATH ?? 'ffmpeg', path.join(work, 'clip.mp4'), { width: 320, height: 180, seconds: 2 }),
    sharp({ create: { width: 320, height: 180, channels: 3, background: { r: 40, g: 90, b: 160 } } })
      .png()
      .toFile(path.join(work, 'thumb.png')),
  ]);
  // Volume first (a thousand videos, thousands of likes, comments and daily views), then a real site on top.
  const catalogue = await promisify(execFile)(
    process.execPath,
    [CATALOGUE_JS, '--db', 'sqlite', '--file', path.join(dataDir, 'reelhouse.db'), '--scale', '0.001'],
    {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  landmarks = JSON.parse(catalogue.stdout.trim().split('\n').at(-1)!).landmarks;

  port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const site = startProcess('site on SQLite', MAIN_JS, siteEnv(dataDir, port));
  try {
    await waitForHealthy(new ApiClient(base), site);
    const alice = await account(base, 'alice');
    const bob = await account(base, 'bob');
    const carol = await account(base, 'carol');
    people = { alice, bob };
    await ok(bob.api, 'POST', `/api/v1/subscriptions/channel/${alice.id}`);
    await ok(carol.api, 'POST', `/api/v1/subscriptions/channel/${alice.id}`);
    for (const title of ['Lighthouse at dawn', 'Harbour lighthouse timelapse']) {
      const form = await clipUploadForm(work, 'clip.mp4', title, `${title}, filmed from the pier. 0:00 Start 0:01 End`);
      videoIds.push((await ok(alice.api, 'POST', '/api/v1/videos/', form))._id);
    }
    const end = Date.now() + 240_000;
    for (const id of videoIds) {
      for (;;) {
        const v = await ok(alice.api, 'GET', `/api/v1/videos/${id}`);
        expect(v.status).not.toBe('failed');
        if (v.status === 'ready' && v.hls && v.storyboard) break;
        if (Date.now() > end) throw new Error(`video ${id} never finished processing`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    const [first, second] = videoIds as [string, string];
    comment = (await ok(bob.api, 'POST', `/api/v1/comments/${first}`, { content: 'Lovely light on the water' }))._id;
    await ok(alice.api, 'POST', `/api/v1/comments/${first}`, { content: 'Thank you! Shot at six.', parentId: comment });
    await ok(carol.api, 'POST', `/api/v1/comments/${first}`, { content: 'Where is this?' });
    await ok(alice.api, 'PATCH', `/api/v1/comments/${comment}/pin`);
    await ok(carol.api, 'POST', `/api/v1/likes/toggle/video/${first}`);
    await ok(bob.api, 'POST', `/api/v1/likes/toggle/video/${second}`);
    await ok(carol.api, 'POST', `/api/v1/likes/toggle/comment/${comment}`);
    const playlist = (await ok(bob.api, 'POST', '/api/v1/playlist/', { name: 'Coast', description: 'Sea things' }))._id;
    await ok(bob.api, 'PATCH', `/api/v1/playlist/add/${first}/${playlist}`);
    await ok(bob.api, 'PATCH', `/api/v1/playlist/add/${second}/${playlist}`);
    await ok(bob.api, 'PATCH', `/api/v1/users/watch-history/${first}`, { position: 1.25 });
    await ok(bob.api, 'PATCH', `/api/v1/users/watch-history/${second}`, {});
    await ok(alice.api, 'POST', `/api/v1/videos/${first}/captions`, captionForm('en', ['The foghorn sounds twice', 'Waves against the rocks']));
    bobToken = bob.api.accessToken;
    for (const api of [bob.api, carol.api, new ApiClient(base)]) await ok(api, 'PATCH', `/api/v1/videos/increment-views/${first}`);
    // Notifications are written after the events that make them: wait until bob's stop changing.
    let seen = -1;
    for (let i = 0; i < 40; i++) {
      const n = (await ok(bob.api, 'GET', '/api/v1/notifications')) as { notifications?: unknown[] };
      const count = JSON.stringify(n).length;
      if (count === seen) break;
      seen = count;
      await new Promise((r) => setTimeout(r, 500));
    }
    before = await readEverything(base, facts());
    media = await readMedia(base, before, videoIds);
  } finally {
    expect(await site.stop()).toBe(0);
  }

  target = await createPgDatabase();
  moved = await runCli(['--to', target.url], dataDir);
}, 600_000);

afterAll(async () => {
  await target?.drop();
  for (const db of extraDbs) await db.drop();
  if (work) await fs.rm(work, { recursive: true, force: true });
});

describe('npm run migrate-to-postgres', () => {
  it('copies every table, says so table by table, and ends with every count equal', async () => {
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toBe('');
    expect(moved.stdout).toMatch(/^ {2}videos: \d+ \/ \d+ rows \(\d+\.\d s\)$/m);
    expect(moved.stdout).toContain("Every table's row count is equal on both sides");

    const pair = await TablePair.open(path.join(dataDir, 'reelhouse.db'), target!.url);
    try {
      const tables = pair.sqliteTables();
      expect(await pair.pgTables()).toEqual(tables);
      const copied = tables.filter((t) => !REBUILT.includes(t));
      for (const t of copied) expect(moved.stdout).toMatch(new RegExp(`^ {2}${t}: (\\d+) / \\1 rows \\(`, 'm'));
      const counts = await pair.counts(copied);
      expect(counts.pg).toEqual(counts.sqlite);
      for (const t of [
        'users',
        'videos',
        'comments',
        'likes',
        'subscriptions',
        'playlists',
        'playlist_videos',
        'watch_history',
        'notifications',
        'view_events',
        'video_daily_views',
        'sessions',
        'jobs',
        'settings',
        'counters',
        'captions',
        'caption_cues',
        'related_rankings',
        'reports',
      ]) {
        expect(counts.sqlite[t], t).toBeGreaterThan(0);
      }
      for (const t of copied) expect(await pair.differences(t, 40), t).toEqual([]);
      // The triggers paused for the copy are on again for the site.
      expect(await pair.disabledTriggers()).toEqual([]);
      // PostgreSQL's own search words: every lexeme of every video, made from the copied rows.
      expect((await pair.pgCounts(['search_words'])).search_words).toBeGreaterThan(1000);
    } finally {
      await pair.close();
    }
  });

  it('serves the same pages and media from PostgreSQL, with the same sign-ins', async () => {
    const site = startProcess('site on PostgreSQL', MAIN_JS, siteEnv(dataDir, port, { DATABASE_URL: target!.url }));
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitForHealthy(new ApiClient(base), site);
      // The reads compared hold something: deep pages, matches, the signed-in viewer's own lists.
      const size = (name: string, key: string) => ((before[name] as Record<string, unknown[]>)[key] ?? []).length;
      expect(size('home deep', 'videos')).toBe(12);
      expect(size('home deep by views', 'videos')).toBe(12);
      expect(size('search upload', 'videos')).toBe(2);
      expect(size('search prefix', 'videos')).toBe(2);
      expect(size('search captions', 'videos')).toBe(1);
      expect(size('search common', 'videos')).toBeGreaterThan(0);
      expect(size('comments', 'comments')).toBe(2);
      expect(size('replies', 'comments')).toBe(1);
      expect(size('deep comments', 'comments')).toBe(20);
      expect(size('bob: subscriptions feed', 'videos')).toBe(2);
      expect(size('bob: notifications', 'notifications')).toBeGreaterThan(0);
      expect(size('alice: notifications', 'notifications')).toBeGreaterThan(0);
      const after = await readEverything(base, facts());
      for (const name of Object.keys(before)) expect(after[name], name).toEqual(before[name]);
      expect(await readMedia(base, after, videoIds)).toEqual(media);
      // Signed in on SQLite, still signed in on PostgreSQL.
      const stillIn = new ApiClient(base);
      stillIn.accessToken = bobToken;
      expect(await ok(stillIn, 'GET', '/api/v1/users/user/current')).toEqual(before['bob: current user']);
      // New rows take ids after the copied ones: new caption cues, and the jobs an upload makes.
      const alice = new ApiClient(base);
      await signIn(alice, people.alice.email, 'correct-horse-1');
      await ok(alice, 'POST', `/api/v1/videos/${videoIds[0]}/captions`, captionForm('fr', ['La corne de brume sonne deux fois']));
      const bob = new ApiClient(base);
      await signIn(bob, people.bob.email, 'correct-horse-1');
      await ok(bob, 'POST', `/api/v1/comments/${videoIds[1]}`, { content: 'Still here after the move' });
      const form = await clipUploadForm(work, 'clip.mp4', 'After the move', 'Uploaded on PostgreSQL');
      await ok(bob, 'POST', '/api/v1/videos/', form);
    } finally {
      expect(await site.stop()).toBe(0);
    }
  }, 240_000);

  it('refuses a target that holds rows, and leaves it unchanged', async () => {
    const pair = await TablePair.open(path.join(dataDir, 'reelhouse.db'), target!.url);
    try {
      const tables = await pair.pgTables();
      const countsBefore = await pair.pgCounts(tables);
      const again = await runCli(['--to', target!.url], dataDir);
      expect(again.code).toBe(1);
      expect(again.stderr.trim().split('\n')).toHaveLength(1);
      expect(again.stderr).toMatch(/^The target database is not empty \(table \w+ has rows\)/);
      expect(await pair.pgCounts(tables)).toEqual(countsBefore);
    } finally {
      await pair.close();
    }
  });

  it('leaves the target as it was when the copy fails midway', async () => {
    // A comment PostgreSQL cannot hold (a NUL character) fails the copy after users and videos went in.
    const broken = path.join(work, 'broken.db');
    await fs.copyFile(path.join(dataDir, 'reelhouse.db'), broken);
    const db = new SQLite(broken);
    db.prepare(`UPDATE comments SET content = 'a' || char(0) || 'b' WHERE id = ?`).run(comment);
    db.close();

    const bare = await createPgDatabase();
    extraDbs.push(bare);
    const migrated = await createPgDatabase();
    extraDbs.push(migrated);
    await (await openDatabase({ database: { kind: 'postgres', url: migrated.url } })).close();

    for (const [db, tablesBefore] of [
      [bare, [] as string[]],
      [migrated, null],
    ] as const) {
      const pair = await TablePair.open(broken, db.url);
      try {
        const expected = tablesBefore ?? (await pair.pgTables());
        const run = await runCli(['--from', broken, '--to', db.url], dataDir);
        expect(run.code).toBe(1);
        expect(run.stderr.trim().split('\n')).toHaveLength(1);
        expect(run.stderr).toMatch(/^The move failed, and the target is left as it was: .*0x00/);
        expect(await pair.pgTables()).toEqual(expected);
        expect(await pair.disabledTriggers()).toEqual([]);
        const counts = await pair.pgCounts(expected.filter((t) => t !== 'counters'));
        expect(Object.values(counts).every((n) => n === 0)).toBe(true);
      } finally {
        await pair.close();
      }
    }
  });
});
