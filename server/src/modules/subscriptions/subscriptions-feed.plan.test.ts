import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { changeVideos, seedVideo } from '../../../test/support/seed.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { SubscriptionsFeedRepository } from './subscriptions-feed.repository.js';

let t: TestApp;
let fan: SignedIn;
let big: SignedIn;
let small: SignedIn;
let unfollowed: SignedIn;
const listed: { id: string; created_at: number }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  [fan, big, small, unfollowed] = await Promise.all([t.signUp(), t.signUp(), t.signUp(), t.signUp()]);
  for (const channel of [big, small]) await t.call({ method: 'POST', url: `/api/v1/subscriptions/channel/${channel.id}`, as: fan });
  // The big channel uploads far more than a page; some of its videos share an upload time with the
  // small channel's, so ties are broken by id across channels.
  const base = 1_700_000_000_000;
  for (let i = 0; i < 60; i++) {
    const v = await seedVideo(t.ctx, big.id, { created_at: base + Math.floor(i / 3) * 1000 });
    listed.push(v);
  }
  for (let i = 0; i < 5; i++) listed.push(await seedVideo(t.ctx, small.id, { created_at: base + i * 7000 }));
  const hidden = await seedVideo(t.ctx, big.id, { created_at: base + 999_000 });
  await changeVideos(t.ctx, [hidden.id], { visibility: 'private' });
  for (let i = 0; i < 5; i++) await seedVideo(t.ctx, unfollowed.id, { created_at: base + i * 500 });
  listed.sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
});
afterAll(() => t?.close());

it("pages the followed channels' listed videos newest first, each page exactly the slice of the whole order", async () => {
  const repo = new SubscriptionsFeedRepository(t.ctx.db);
  const seen: string[] = [];
  for (let offset = 0; offset < listed.length + 7; offset += 7) {
    const page = await repo.videos(fan.id, offset, 7);
    expect(page.total).toBe(listed.length);
    seen.push(...page.rows.map((r) => r.id));
  }
  // SQLite and PostgreSQL order the ids the same way only when compared as the database does:
  // checked here against each database's own order of the same rows.
  const order = await t.ctx.db
    .selectFrom('videos')
    .select('id')
    .where(
      'id',
      'in',
      listed.map((v) => v.id),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  expect(seen).toEqual(order.map((r) => r.id));
});

/**
 * A page reads each followed channel's index from a cutoff found by one seek: the channel's videos
 * are searched by (owner, listed, created_at), never scanned.
 */
it("reads a page through the channels' listed index", async () => {
  // A catalogue where the followed channels are a small part of all videos, as on a real site, so
  // that the statistics make the planners choose as they would there.
  // PostgreSQL's generated search column is not written.
  const { search_vector: _generated, ...template } = (await seedVideo(t.ctx, unfollowed.id)) as Awaited<ReturnType<typeof seedVideo>> & {
    search_vector?: unknown;
  };
  for (let chunk = 0; chunk < 8; chunk++) {
    await t.ctx.db
      .insertInto('videos')
      .values(
        Array.from({ length: 500 }, (_, i) => ({
          ...template,
          id: `bulk${chunk}x${String(i).padStart(4, '0')}`,
          created_at: template.created_at + chunk * 500 + i,
        })),
      )
      .execute();
  }
  await sql`ANALYZE`.execute(t.ctx.db);
  const repo = new SubscriptionsFeedRepository(t.ctx.db);
  const query = (repo as unknown as { pageIds(s: string, o: number, l: number): { compile(): { sql: string; parameters: readonly unknown[] } } })
    .pageIds(fan.id, 24, 12)
    .compile();
  let text = query.sql;
  if (t.ctx.dialect === 'sqlite') {
    for (const p of query.parameters) text = text.replace('?', typeof p === 'string' ? `'${p}'` : String(p));
  } else {
    query.parameters.forEach((p, i) => {
      text = text.replace(new RegExp(`\\$${i + 1}(?!\\d)`), typeof p === 'string' ? `'${p}'` : String(p));
    });
  }
  // PostgreSQL reads tables this small whole whatever the indexes; with whole-table scans priced
  // out, the plan shows which index it would seek.
  const plan =
    t.ctx.dialect === 'sqlite'
      ? (await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${text}`).execute(t.ctx.db)).rows.map((r) => r.detail).join('\n')
      : await t.ctx.db.transaction().execute(async (trx) => {
          await sql`SET LOCAL enable_seqscan = off`.execute(trx);
          return (await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`).execute(trx)).rows.map((r) => r['QUERY PLAN']).join('\n');
        });
  if (t.ctx.dialect === 'sqlite') {
    expect(plan).toMatch(/SEARCH v USING COVERING INDEX videos_owner_listed_created_at \(owner_id=\? AND listed=\? AND created_at>\?\)/);
  } else {
    // An index led by the owner, entered at the channel's cutoff (which of them depends on the statistics).
    expect(plan).toMatch(/Index Cond: \(\(owner_id = subscriptions\.channel_id\)[^\n]*created_at >= COALESCE\(\(SubPlan/);
  }
  expect(plan).not.toMatch(/SCAN (v|w|videos)\b(?! USING)|Seq Scan on videos/);
});
