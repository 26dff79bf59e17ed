import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeVideos, seedVideo } from '../../test/support/seed.js';
import { createTestApp, type SignedIn, type TestApp } from '../../test/support/test-app.js';

// A small spacing, so lists of a few hundred videos have many kept boundaries and every page past
// the first few seeks to one.
const SPACING = 7;
const PAGE = 10;
const SORTS = [
  ['createdAt', 'created_at'],
  ['views', 'views'],
  ['duration', 'duration'],
  ['title', 'title'],
] as const;

let t: TestApp;
let a: SignedIn;
let b: SignedIn;
beforeAll(async () => {
  t = await createTestApp({ env: { PAGE_BUCKET_SPACING: String(SPACING) } });
  a = await t.signUp();
  b = await t.signUp();
});
afterAll(async () => {
  await t?.close();
});

/** Sort values drawn from a few each, so most videos tie with many others in every sort. */
const TITLES = ['Alpha', 'alpha', 'Beta', 'Échelle', 'Zeta', 'beta 2'];
const fields = (i: number) => ({
  views: i % 4,
  duration: [5, 12.5, 60][i % 3],
  title: TITLES[i % TITLES.length],
  created_at: 1_700_000_000_000 + (i % 9),
});

async function seed(owner: SignedIn, count: number, from: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = from; i < from + count; i++) ids.push((await seedVideo(t.ctx, owner.id, fields(i))).id);
  return ids;
}

/** The plain answer: the database's own ORDER BY col, id LIMIT/OFFSET. */
async function offsetPage(list: { ownerId?: string; all?: boolean }, col: string, dir: 'asc' | 'desc', offset: number): Promise<string[]> {
  let q = t.ctx.db.selectFrom('videos').select('id');
  if (list.ownerId) q = q.where('owner_id', '=', list.ownerId);
  if (!list.all) q = q.where('listed', '=', 1);
  const rows = await q
    .orderBy(sql.ref(`videos.${col}`), dir)
    .orderBy('id', dir)
    .limit(PAGE)
    .offset(offset)
    .execute();
  return rows.map((r) => r.id);
}

/** Every page of a list through the API, each compared with the plain answer. */
async function expectEveryPage(list: { ownerId?: string; all?: boolean }, as?: SignedIn) {
  for (const [sortBy, col] of SORTS) {
    for (const sortType of ['asc', 'desc'] as const) {
      const query = `${list.ownerId ? `userId=${list.ownerId}&` : ''}sortBy=${sortBy}&sortType=${sortType}&pageSize=${PAGE}`;
      const first = await t.call({ method: 'GET', url: `/api/v1/videos/?${query}&pageNumber=1`, as });
      const pages = first.data.totalPages as number;
      for (let p = 1; p <= pages + 1; p++) {
        const res = p === 1 ? first : await t.call({ method: 'GET', url: `/api/v1/videos/?${query}&pageNumber=${p}`, as });
        expect(res.statusCode).toBe(200);
        const got = (res.data.videos as { _id: string }[]).map((d) => d._id);
        expect(got, `${query} page ${p}`).toEqual(await offsetPage(list, col, sortType, (p - 1) * PAGE));
      }
    }
  }
}

/** Each kept count against a real count of the rows between its boundary and the next. */
async function expectBucketsExact() {
  const buckets = await t.ctx.db
    .selectFrom('page_buckets')
    .selectAll()
    .orderBy('list')
    .orderBy('sort')
    .orderBy('num')
    .orderBy('txt')
    .orderBy('id_key')
    .execute();
  expect(buckets.length).toBeGreaterThan(0);
  for (let i = 0; i < buckets.length; i++) {
    const bk = buckets[i];
    const next = buckets[i + 1]?.list === bk.list && buckets[i + 1]?.sort === bk.sort ? buckets[i + 1] : null;
    const col = sql.ref(`videos.${bk.sort}`);
    const key = (x: typeof bk) => (bk.sort === 'title' ? x.txt : x.num);
    let q = t.ctx.db.selectFrom('videos').select((eb) => eb.fn.countAll<number>().as('n'));
    if (bk.list !== 'feed') q = q.where('owner_id', '=', bk.list.slice(bk.list.indexOf(':') + 1));
    if (!bk.list.startsWith('all:')) q = q.where('listed', '=', 1);
    if (Number(bk.num) !== -1) q = q.where(sql<boolean>`(${col}, videos.id) >= (${key(bk)}, ${bk.id_key})`);
    if (next) q = q.where(sql<boolean>`(${col}, videos.id) < (${key(next)}, ${next.id_key})`);
    const real = await q.executeTakeFirstOrThrow();
    expect(Number(bk.n), `${bk.list} ${bk.sort} ${bk.num} ${bk.txt} ${bk.id_key}`).toBe(Number(real.n));
  }
}

describe('deep pages of the home feed and channels', () => {
  it('equal the plain OFFSET answer on every page, in every sort and direction, ties included', async () => {
    const mine = await seed(a, 120, 0);
    await seed(b, 90, 120);
    // The owner's hidden ones: private, unlisted, taken down, still processing.
    await changeVideos(t.ctx, mine.slice(0, 8), { visibility: 'private' });
    await changeVideos(t.ctx, mine.slice(8, 14), { visibility: 'unlisted' });
    await changeVideos(t.ctx, mine.slice(14, 19), { hidden_at: Date.now(), hidden_reason: 'spam' });
    await changeVideos(t.ctx, mine.slice(19, 23), { status: 'processing' });

    await expectEveryPage({});
    await expectEveryPage({ ownerId: a.id });
    await expectEveryPage({ ownerId: a.id }, b);
    await expectEveryPage({ ownerId: a.id, all: true }, a);
    await expectBucketsExact();
  });

  it('stay right after uploads, deletions, visibility, view count and title changes between requests', async () => {
    const before = await t.ctx.db
      .selectFrom('page_buckets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    // New videos (more than a bucket holds, so buckets split), with the same tied sort values.
    const added = await seed(a, 40, 500);
    await seed(b, 25, 600);
    // Deletions, through the API and straight from the database.
    for (const id of added.slice(0, 3)) {
      expect((await t.call({ method: 'DELETE', url: `/api/v1/videos/${id}`, as: a })).statusCode).toBe(200);
    }
    const some = await t.ctx.db.selectFrom('videos').select(['id', 'owner_id']).where('owner_id', '=', b.id).orderBy('id').limit(5).execute();
    await t.ctx.db
      .deleteFrom('videos')
      .where(
        'id',
        'in',
        some.map((r) => r.id),
      )
      .execute();
    // Visibility both ways, a takedown, view counts and titles.
    const listedOfA = await t.ctx.db.selectFrom('videos').select('id').where('owner_id', '=', a.id).where('listed', '=', 1).orderBy('id').execute();
    await changeVideos(
      t.ctx,
      listedOfA.slice(0, 6).map((r) => r.id),
      { visibility: 'private' },
    );
    const privateOfA = await t.ctx.db
      .selectFrom('videos')
      .select('id')
      .where('owner_id', '=', a.id)
      .where('visibility', '=', 'private')
      .orderBy('id')
      .execute();
    await changeVideos(
      t.ctx,
      privateOfA.slice(0, 4).map((r) => r.id),
      { visibility: 'public' },
    );
    await changeVideos(
      t.ctx,
      listedOfA.slice(10, 12).map((r) => r.id),
      { hidden_at: Date.now(), hidden_reason: 'spam' },
    );
    const all = await t.ctx.db.selectFrom('videos').select('id').orderBy('id').execute();
    for (const [i, r] of all.entries()) {
      if (i % 5 === 0)
        await t.ctx.db
          .updateTable('videos')
          .set({ views: sql<number>`views + ${1 + (i % 3)}` })
          .where('id', '=', r.id)
          .execute();
      if (i % 11 === 0)
        await t.ctx.db
          .updateTable('videos')
          .set({ title: TITLES[(i + 1) % TITLES.length] })
          .where('id', '=', r.id)
          .execute();
    }

    await expectBucketsExact();
    await expectEveryPage({});
    await expectEveryPage({ ownerId: a.id });
    await expectEveryPage({ ownerId: a.id, all: true }, a);
    await expectEveryPage({ ownerId: b.id, all: true }, b);
    await expectBucketsExact();
    const after = await t.ctx.db
      .selectFrom('page_buckets')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBeGreaterThan(Number(before.n));
    const big = await t.ctx.db
      .selectFrom('page_buckets')
      .select('n')
      .where('n', '>', 2 * SPACING)
      .execute();
    expect(big).toEqual([]);
  });

  it('keep exact counts when writes and deep pages (which split buckets) run at the same time', async () => {
    await seed(a, 30, 800); // enough for deep pages even when this test runs alone
    const writes = Array.from({ length: 60 }, (_, i) => async () => {
      const v = await seedVideo(t.ctx, (i % 2 ? a : b).id, fields(700 + i));
      if (i % 3 === 0) await changeVideos(t.ctx, [v.id], { visibility: 'private' });
      if (i % 4 === 0)
        await t.ctx.db
          .updateTable('videos')
          .set({ views: sql<number>`views + 1` })
          .where('id', '=', v.id)
          .execute();
    });
    const reads = Array.from(
      { length: 40 },
      (_, i) => () =>
        t
          .call({
            method: 'GET',
            url: `/api/v1/videos/?pageSize=${PAGE}&pageNumber=${2 + (i % 20)}&sortBy=${SORTS[i % 4][0]}&sortType=${i % 8 < 4 ? 'asc' : 'desc'}`,
          })
          .then((r) => expect(r.statusCode).toBe(200)),
    );
    const interleaved = writes.flatMap((w, i) => (reads[i] ? [w, reads[i]] : [w]));
    await Promise.all(interleaved.map((f) => f()));
    await expectBucketsExact();
    await expectEveryPage({});
  });

  it('answer a page past the end with no videos and the same page fields', async () => {
    const res = await t.call({ method: 'GET', url: `/api/v1/videos/?pageSize=${PAGE}&pageNumber=10000&sortBy=views&sortType=asc` });
    expect(res.statusCode).toBe(200);
    expect(res.data.videos).toEqual([]);
    expect(res.data.currentPage).toBe(10000);
  });
});
