import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testDialect } from '../../../test/support/databases.js';
import { recording, sqlitePlan } from '../../../test/support/query-log.js';
import { seedVideo } from '../../../test/support/seed.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { newId } from '../../lib/ids.js';
import { DiscoveryRepository } from './discovery.repository.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/**
 * SQLite's planner, with statistics of a catalogue where most videos are listed, must not read
 * every listed video to check a handful of candidates. (PostgreSQL's plans on test-sized tables
 * are sequential scans and say nothing about a large one.) The similar-words block's plan is the
 * search module's (search/similar-matches.plan.test.ts).
 */
it.runIf(testDialect === 'sqlite')('up next looks up its candidates by index', async () => {
  const owner = await t.signUp();
  const videos = [];
  for (let i = 0; i < 60; i++) videos.push(await seedVideo(t.ctx, owner.id, { title: `Heron ${i} wading`, description: 'marsh birds' }));
  const viewer = newId();
  const now = Date.now();
  await t.ctx.db
    .insertInto('users')
    .values({
      id: viewer,
      username: `u${viewer.toLowerCase().replace(/[^a-z0-9]/g, '')}`,
      email: `${viewer}@example.com`,
      full_name: 'Plan Viewer',
      password_hash: 'x',
      avatar_key: null,
      cover_key: null,
      is_demo: 0,
      role: 'user',
      banned_at: null,
      ban_reason: null,
      approval_pending: 0,
      quota_bytes: null,
      daily_quota_bytes: null,
      subscribers_count: 0,
      videos_count: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await t.ctx.db
    .insertInto('watch_history')
    .values(videos.map((v, i) => ({ user_id: viewer, video_id: v.id, watched_at: now + i, position: null })))
    .execute();
  await sql`ANALYZE`.execute(t.ctx.db);

  const { db, queries } = recording(t.ctx.db);
  const repo = new DiscoveryRepository(db);
  expect([...(await repo.coWatched(videos[0]!.id)).keys()]).toEqual([videos[1]!.id, videos[2]!.id]);
  const coWatch = await sqlitePlan(t.ctx.db, queries.at(-1)!);
  expect(coWatch).toMatch(/watch_history_video_recent/);
  expect(coWatch).toMatch(/SEARCH w USING INDEX watch_history_recent/);
  expect(coWatch).not.toMatch(/SCAN videos|videos_listed_/);
});
