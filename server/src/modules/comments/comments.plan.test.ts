import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedVideo } from '../../../test/support/seed.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { newId } from '../../lib/ids.js';
import { CommentsRepository } from './comments.repository.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/**
 * Most comments are top-level. Once the database has statistics of that (SQLite's ANALYZE, which
 * `PRAGMA optimize` runs too), each comment's reply count must still look its replies up by index,
 * not scan every comment.
 */
it("counts a page of comments' replies through the replies index, with statistics of a table of mostly top-level comments", async () => {
  const owner = await t.signUp();
  const video = await seedVideo(t.ctx, owner.id);
  const now = Date.now();
  const rows = Array.from({ length: 400 }, (_, i) => ({
    id: newId(),
    video_id: video.id,
    owner_id: owner.id,
    content: `comment ${i}`,
    parent_id: null,
    pinned_at: null,
    hearted_at: null,
    likes_count: 0,
    created_at: now + i,
    updated_at: now + i,
  }));
  await t.ctx.db.insertInto('comments').values(rows).execute();
  await t.ctx.db
    .insertInto('comments')
    .values({ ...rows[399]!, id: newId(), parent_id: rows[399]!.id, content: 'a reply' })
    .execute();
  await sql`ANALYZE`.execute(t.ctx.db);

  const repo = new CommentsRepository(t.ctx.db);
  const page = await repo.page(video.id, 0, 12);
  expect(page.total).toBe(400);
  expect(page.rows.find((r) => r.id === rows[399]!.id)?.reply_count).toBe(1);

  const query = (repo as unknown as { withOwner(): { where: (...a: unknown[]) => { compile(): { sql: string; parameters: readonly unknown[] } } } })
    .withOwner()
    .where('comments.video_id', '=', video.id)
    .compile();
  const plan =
    t.ctx.dialect === 'sqlite'
      ? (await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${query.sql.replace('?', `'${video.id}'`)}`).execute(t.ctx.db)).rows.map((r) => r.detail)
      : (await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN ${query.sql.replace('$1', `'${video.id}'`)}`).execute(t.ctx.db)).rows.map((r) => r['QUERY PLAN']);
  const subquery = plan.join('\n');
  expect(subquery).toMatch(/comments_replies_only/);
  expect(subquery).not.toMatch(/^SCAN r$/m);
});
