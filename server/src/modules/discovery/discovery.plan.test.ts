import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testDialect } from '../../../test/support/databases.js';
import { seedVideo } from '../../../test/support/seed.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import type { Db } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import { DiscoveryRepository } from './discovery.repository.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/** The database, with every raw query it runs kept, to read their plans. */
function recording(db: Db): { db: Db; queries: CompiledQuery[] } {
  const queries: CompiledQuery[] = [];
  const spy = new Proxy(db, {
    get(target, prop) {
      if (prop === 'getExecutor') {
        return () => {
          const executor = target.getExecutor();
          return new Proxy(executor, {
            get(e, p) {
              if (p === 'executeQuery') return (q: CompiledQuery, id: unknown) => { queries.push(q); return (e.executeQuery as (...a: unknown[]) => unknown)(q, id); };
              const v = Reflect.get(e, p, e);
              return typeof v === 'function' ? v.bind(e) : v;
            },
          });
        };
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { db: spy, queries };
}

const planOf = async (q: CompiledQuery) =>
  (await t.ctx.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]))).rows.map((r) => r.detail).join('\n');

/**
 * SQLite's planner, with statistics of a catalogue where most videos are listed, must not read
 * every listed video to check a handful of candidates, nor sort the full-text matches itself.
 * (PostgreSQL's plans on test-sized tables are sequential scans and say nothing about a large one.)
 */
it.runIf(testDialect === 'sqlite')('up next looks up its candidates by index and lets FTS5 give the newest matches in order', async () => {
  const owner = await t.signUp();
  const videos = [];
  for (let i = 0; i < 60; i++) videos.push(await seedVideo(t.ctx, owner.id, { title: `Heron ${i} wading`, description: 'marsh birds' }));
  const viewer = newId();
  const now = Date.now();
  await t.ctx.db.insertInto('users').values({
    id: viewer, username: `u${viewer.toLowerCase().replace(/[^a-z0-9]/g, '')}`, email: `${viewer}@example.com`, full_name: 'Plan Viewer',
    password_hash: 'x', avatar_key: null, cover_key: null, is_demo: 0, role: 'user', banned_at: null, ban_reason: null,
    approval_pending: 0, quota_bytes: null, daily_quota_bytes: null, subscribers_count: 0, videos_count: 0, created_at: now, updated_at: now,
  }).execute();
  await t.ctx.db.insertInto('watch_history').values(videos.map((v, i) => ({ user_id: viewer, video_id: v.id, watched_at: now + i, position: null }))).execute();
  await sql`ANALYZE`.execute(t.ctx.db);

  const { db, queries } = recording(t.ctx.db);
  const repo = new DiscoveryRepository(db, t.ctx.dialect);
  expect([...(await repo.coWatched(videos[0]!.id)).keys()]).toEqual([videos[1]!.id, videos[2]!.id]);
  const coWatch = await planOf(queries.at(-1)!);
  expect(coWatch).toMatch(/watch_history_video_recent/);
  expect(coWatch).toMatch(/SEARCH w USING INDEX watch_history_recent/);
  expect(coWatch).not.toMatch(/SCAN videos|videos_listed_/);

  const block = await repo.newestMatchesOfAny(videos[0]!.id, ['heron', 'marsh'], 20);
  expect(block.rows.map((r) => r.id)).toEqual(videos.slice(-20).reverse().map((v) => v.id));
  const similar = await planOf(queries.find((q) => q.sql.includes('videos_fts match'))!);
  expect(similar).toMatch(/VIRTUAL TABLE INDEX/);
  expect(similar).not.toMatch(/TEMP B-TREE/);
});

it('reads the same block of newest matches whether it walks the time index or sorts the matches', async () => {
  const owner = await t.signUp();
  const videos = [];
  for (let i = 0; i < 8; i++) videos.push(await seedVideo(t.ctx, owner.id, { title: i % 2 ? `Osprey ${i}` : `Lichen ${i}`, description: i === 3 ? 'kestrel' : 'cliffs' }));
  const repo = new DiscoveryRepository(t.ctx.db, t.ctx.dialect);
  const newest = (few: boolean) => repo.newestMatchesOfAny(videos[0]!.id, ['osprey', 'kestrel'], 3, few);
  const walked = await newest(false);
  expect(walked.rows.map((r) => r.id)).toEqual([videos[7]!.id, videos[5]!.id, videos[3]!.id]);
  expect(await newest(true)).toEqual(walked);
  expect(walked.span).toBeGreaterThanOrEqual(5);
});
