import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../src/db/client.js';
import { createPgDatabase, testDialect } from '../support/databases.js';
import { buildServer, ROOT } from '../support/processes.js';

/**
 * The benchmark catalogue generator (bench/catalogue.mjs) at a small scale: the database it fills
 * has every kept counter equal to a count of the rows and a search index that finds its words, so
 * the list and search benchmarks measure a database the server could have written itself.
 */
let handle: DbHandle;
let cleanup: () => Promise<void>;
let summary: Record<string, number>;

beforeAll(async () => {
  await buildServer();
  let target: string[];
  let database: Parameters<typeof openDatabase>[0]['database'];
  if (testDialect === 'postgres') {
    const pgDb = await createPgDatabase();
    target = ['--db', 'postgres', '--url', pgDb.url];
    database = { kind: 'postgres', url: pgDb.url };
    cleanup = () => pgDb.drop();
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalogue-'));
    const file = path.join(dir, 'reelhouse.db');
    target = ['--db', 'sqlite', '--file', file];
    database = { kind: 'sqlite', file };
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'bench/catalogue.mjs'), ...target, '--scale', '0.002'], {
    cwd: ROOT,
    timeout: 120_000,
  });
  summary = JSON.parse(stdout.trim().split('\n').at(-1)!);
  handle = await openDatabase({ database });
}, 240_000);

afterAll(async () => {
  await handle?.close();
  await cleanup?.();
});

describe('bench/catalogue.mjs', () => {
  it('makes the rows it was asked for', () => {
    expect(summary).toMatchObject({ users: 100, videos: 2000, likes: 4000, comments: 2000, subscriptions: 1000 });
    expect(summary.listedVideos).toBeGreaterThan(1800);
    expect(summary.listedVideos).toBeLessThan(2000);
  });

  it('keeps every counter equal to the rows it counts', async () => {
    const { db } = handle;
    const listed = await db
      .selectFrom('videos')
      .where('listed', '=', 1)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const counter = await db.selectFrom('counters').where('key', '=', 'public_videos').select('value').executeTakeFirstOrThrow();
    expect(Number(counter.value)).toBe(Number(listed.n));

    const wrongChannels = await sql<{ n: number }>`SELECT count(*) AS n FROM users WHERE videos_count <>
      (SELECT count(*) FROM videos WHERE videos.owner_id = users.id AND videos.listed = 1)
      OR subscribers_count <> (SELECT count(*) FROM subscriptions WHERE subscriptions.channel_id = users.id)`.execute(db);
    expect(Number(wrongChannels.rows[0].n)).toBe(0);

    const wrongVideos = await sql<{ n: number }>`SELECT count(*) AS n FROM videos WHERE likes_count <>
      (SELECT count(*) FROM likes WHERE likes.target_type = 'video' AND likes.target_id = videos.id)
      OR comments_count <> (SELECT count(*) FROM comments WHERE comments.video_id = videos.id)`.execute(db);
    expect(Number(wrongVideos.rows[0].n)).toBe(0);
  });

  it('indexes every video for search', async () => {
    const { db, dialect } = handle;
    const matches =
      dialect === 'postgres'
        ? await sql<{ n: number }>`SELECT count(*) AS n FROM videos WHERE search_vector @@ to_tsquery('simple', 'the')`.execute(db)
        : await sql<{ n: number }>`SELECT count(*) AS n FROM videos_fts WHERE videos_fts MATCH 'the'`.execute(db);
    const titles = await sql<{
      n: number;
    }>`SELECT count(*) AS n FROM videos WHERE lower(title) LIKE 'the %' OR lower(title) LIKE '% the %' OR lower(title) LIKE '% the'`.execute(db);
    expect(Number(matches.rows[0].n)).toBeGreaterThanOrEqual(Number(titles.rows[0].n));
    expect(Number(titles.rows[0].n)).toBeGreaterThan(100);
  });

  it('gives one video thousands of comments for deep comment pages', async () => {
    const top = await handle.db.selectFrom('videos').select('comments_count').orderBy('comments_count', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(top.comments_count).toBeGreaterThanOrEqual(1000);
  });
});
