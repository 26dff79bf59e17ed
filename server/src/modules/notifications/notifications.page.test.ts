import { pageInfo } from '@reelhouse/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { changeVideos, seedVideo } from '../../../test/support/seed.js';
import { setBanned, signUpAs } from '../../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { newId } from '../../lib/ids.js';
import { NotificationsRepository } from './notifications.repository.js';

let t: TestApp;
let reader: SignedIn;
let visible: string[] = [];
const TOTAL = 40;

beforeAll(async () => {
  t = await createTestApp();
  const [owner, troll, other] = await Promise.all([t.signUp(), t.signUp(), t.signUp()]);
  reader = await t.signUp();
  const shown = await seedVideo(t.ctx, owner.id);
  const hidden = await seedVideo(t.ctx, owner.id);
  // Forty notifications, some sharing a time (ties are broken by id); a few stop being visible.
  const base = 1_700_000_000_000;
  const rows = Array.from({ length: TOTAL }, (_, i) => {
    const actor = i % 10 === 3 ? troll.id : owner.id;
    const video = i % 10 === 7 ? hidden.id : shown.id;
    return {
      id: newId(),
      user_id: reader.id,
      kind: 'new_video' as const,
      event_key: `test:${i}`,
      actor_id: actor,
      video_id: video,
      comment_id: null,
      reason: null,
      read_at: null,
      created_at: base + Math.floor(i / 2) * 1000,
    };
  });
  await t.ctx.db.insertInto('notifications').values(rows).execute();
  // Someone else's notifications are never counted in.
  await t.ctx.db
    .insertInto('notifications')
    .values(
      Array.from({ length: 30 }, (_, i) => ({
        ...rows[0]!,
        id: newId(),
        user_id: other.id,
        event_key: `other:${i}`,
      })),
    )
    .execute();
  await changeVideos(t.ctx, [hidden.id], { visibility: 'private' });
  const admin = await signUpAs(t, 'admin');
  await setBanned(t.ctx.db, { id: admin.id, username: admin.username }, troll.id, { reason: 'spam' }, t.ctx.answers);
  const order = await t.ctx.db
    .selectFrom('notifications')
    .select('id')
    .where('user_id', '=', reader.id)
    .where('actor_id', '<>', troll.id)
    .where('video_id', '<>', hidden.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  visible = order.map((r) => r.id);
  expect(visible).toHaveLength(32);
});
afterAll(() => t?.close());

/** The page fields of each page, and the rows, walking `nextPage` from the first page. */
async function walk(repo: NotificationsRepository, pageSize: number) {
  const pages = [];
  for (let pageNumber = 1; pageNumber <= 50; pageNumber++) {
    const { rows, total } = await repo.page(reader.id, (pageNumber - 1) * pageSize, pageSize);
    const info = pageInfo(total, pageNumber, pageSize);
    pages.push({ ids: rows.map((r) => r.id), total, info });
    if (!info.hasNextPage) break;
  }
  return pages;
}

it('counts visible notifications exactly below the limit', async () => {
  const pages = await walk(new NotificationsRepository(t.ctx.db), 5);
  expect(pages.flatMap((p) => p.ids)).toEqual(visible);
  for (const p of pages) expect(p.total).toBe(visible.length);
});

it('above the limit, pages never contradict each other: following nextPage reads every visible one and ends on the last', async () => {
  const repo = new NotificationsRepository(t.ctx.db, { exactUpTo: 10 });
  const pages = await walk(repo, 5);
  expect(pages.flatMap((p) => p.ids)).toEqual(visible);
  const last = pages.at(-1)!;
  expect(last.total).toBe(visible.length);
  for (const p of pages.slice(0, -1)) {
    expect(p.ids).toHaveLength(5);
    // All rows of the user, hidden ones included, when there are too many to count.
    expect(p.total).toBeGreaterThanOrEqual(visible.length);
    expect(p.total).toBeLessThanOrEqual(TOTAL);
  }
  // A page past the end has nothing and does not point further.
  const past = await repo.page(reader.id, 100, 5);
  expect(past.rows).toEqual([]);
  expect(pageInfo(past.total, 21, 5).hasNextPage).toBe(false);
  const justPast = await repo.page(reader.id, visible.length, 5);
  expect(justPast.rows).toEqual([]);
  expect(pageInfo(justPast.total, visible.length / 5 + 1, 5)).toMatchObject({ hasNextPage: false });
});

/** A page walks the user's newest notifications in order from the index and stops: no sort of all of them. */
it('reads a page in order from the (user, created_at, id) index', async () => {
  await sql`ANALYZE`.execute(t.ctx.db);
  const repo = new NotificationsRepository(t.ctx.db);
  const query = (repo as unknown as { withView(u: string): { orderBy(c: string, d: string): any } })
    .withView(reader.id)
    .orderBy('notifications.created_at', 'desc')
    .orderBy('notifications.id', 'desc')
    .limit(13)
    .compile() as { sql: string };
  const text =
    t.ctx.dialect === 'sqlite' ? query.sql.replace('?', `'${reader.id}'`).replace('?', '13') : query.sql.replace('$1', `'${reader.id}'`).replace('$2', '13');
  // PostgreSQL reads a table this small whole whatever the indexes; with scans and sorts priced out,
  // the plan shows whether an index gives the page's order.
  const plan =
    t.ctx.dialect === 'sqlite'
      ? (await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${text}`).execute(t.ctx.db)).rows.map((r) => r.detail).join('\n')
      : await t.ctx.db.transaction().execute(async (trx) => {
          await sql`SET LOCAL enable_seqscan = off`.execute(trx);
          await sql`SET LOCAL enable_sort = off`.execute(trx);
          return (await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`).execute(trx)).rows.map((r) => r['QUERY PLAN']).join('\n');
        });
  expect(plan).toMatch(/notifications_page/);
  expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY|Sort Key/);
});
