import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testDialect } from '../../../test/support/databases.js';
import { recording, sqlitePlan } from '../../../test/support/query-log.js';
import { seedVideo } from '../../../test/support/seed.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { createSearch } from './search.factory.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/**
 * SQLite's planner, with statistics of a catalogue where most videos are listed, must let FTS5
 * give the newest matches in order rather than sort them itself. (PostgreSQL's plans on test-sized
 * tables are sequential scans and say nothing about a large one.)
 */
it.runIf(testDialect === 'sqlite')('similar videos come from FTS5 newest first, unsorted', async () => {
  const owner = await t.signUp();
  const videos = [];
  for (let i = 0; i < 60; i++) videos.push(await seedVideo(t.ctx, owner.id, { title: `Heron ${i} wading`, description: 'marsh birds' }));
  await sql`ANALYZE`.execute(t.ctx.db);

  const { db, queries } = recording(t.ctx.db);
  const search = createSearch(db, t.ctx.dialect);
  const block = await search.newestMatchesOfAny(videos[0]!.id, ['heron', 'marsh'], { take: 20, spanUpTo: 401 });
  expect(block.rows.map((r) => r.id)).toEqual(
    videos
      .slice(-20)
      .reverse()
      .map((v) => v.id),
  );
  const similar = await sqlitePlan(
    t.ctx.db,
    queries.find((q) => q.sql.includes('videos_fts match'))!,
  );
  expect(similar).toMatch(/VIRTUAL TABLE INDEX/);
  expect(similar).not.toMatch(/TEMP B-TREE/);
});

it('reads the same block of newest matches whether it walks the time index or sorts the matches', async () => {
  const owner = await t.signUp();
  const videos = [];
  for (let i = 0; i < 8; i++)
    videos.push(await seedVideo(t.ctx, owner.id, { title: i % 2 ? `Osprey ${i}` : `Lichen ${i}`, description: i === 3 ? 'kestrel' : 'cliffs' }));
  const search = createSearch(t.ctx.db, t.ctx.dialect);
  // The span counted up to where 3 matches would be 5% of it, as up next counts it.
  const newest = (fewMatches: boolean) => search.newestMatchesOfAny(videos[0]!.id, ['osprey', 'kestrel'], { take: 3, spanUpTo: 61, fewMatches });
  const walked = await newest(false);
  expect(walked.rows.map((r) => r.id)).toEqual([videos[7]!.id, videos[5]!.id, videos[3]!.id]);
  expect(await newest(true)).toEqual(walked);
  expect(walked.span).toBeGreaterThanOrEqual(5);
});
