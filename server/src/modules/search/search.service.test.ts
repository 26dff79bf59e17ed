import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeVideos, seedVideo } from '../../../test/support/seed.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import type { Database } from '../../db/schema.js';
import { refreshVideoAccess } from '../../db/video-access.js';
import type { VideoListFilter } from '../../db/video-list.js';
import { createSearch } from './search.factory.js';
import type { SearchService } from './search.service.js';

/**
 * The bounded search on a real database, with a window of 3 and an exact count up to 5, so that
 * blocks, the cap and the estimate show with a handful of videos.
 */
let t: TestApp;
let owner: SignedIn;
let search: SearchService;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp({ username: 'searcher', fullName: 'Sam Searcher' });
  search = createSearch(t.ctx.db, t.ctx.dialect, { window: 3, exactUpTo: 5 });
});
afterAll(() => t.close());

const filter = (words: string[], over: Partial<VideoListFilter> = {}): VideoListFilter => ({
  includeHidden: false,
  words,
  byRelevance: true,
  sortBy: 'createdAt',
  sortType: 'desc',
  limit: 2,
  offset: 0,
  ...over,
});
const seed = (over: Partial<Database['videos']>) => seedVideo(t.ctx, owner.id, over);

/** Every page of a search, in order, with the totals each answered. */
async function allPages(words: string[], over: Partial<VideoListFilter> = {}, r = search) {
  const ids: string[] = [];
  const totals: { total: number; counted: boolean }[] = [];
  for (let offset = 0; offset < 100; offset += 2) {
    const page = await r.videos(filter(words, { ...over, offset }));
    totals.push({ total: page.total, counted: page.counted });
    ids.push(...page.rows.map((row) => row.id));
    if (page.rows.length < 2 || offset + 2 >= page.total) break;
  }
  return { ids, totals };
}

describe('relevance', () => {
  it('ranks title matches above channel and description matches within the window', async () => {
    // Videos without the word, so that it is rare enough for bm25 to weigh where it is found.
    for (let i = 0; i < 6; i++) await seed({ title: `Filler ${i}`, description: 'Nothing here' });
    // Oldest first, so that relevance and recency disagree.
    const fan = await t.signUp({ username: 'skywatch', fullName: 'Quasar Fan' });
    const title = await seed({ title: 'Quasar light', description: 'Photons' });
    const channel = await seedVideo(t.ctx, fan.id, { title: 'Evening sky', description: 'Stars' });
    const desc = await seed({ title: 'Evening walk', description: 'a quasar far away' });
    const page = await search.videos(filter(['quasar'], { limit: 3 }));
    expect(page.rows.map((r) => r.id)).toEqual([title.id, channel.id, desc.id]);
    expect(page).toMatchObject({ total: 3, counted: true });
  });

  it('pages through blocks of the newest matches, each ranked, disjoint and stable across the cap', async () => {
    // Oldest first; the blocks, newest first, are 7 6 5 | 4 3 2 | 1 0, and in each the newest (7, 4
    // and 1) matches only by its description, so relevance and recency disagree in every block.
    const made: { id: string; inTitle: boolean }[] = [];
    for (let i = 0; i < 8; i++) {
      const inTitle = i % 3 !== 1;
      const row = await seed(inTitle ? { title: `Nebula ${i}`, description: 'Stars' } : { title: `Cloud ${i}`, description: 'a nebula' });
      made.push({ id: row.id, inTitle });
    }
    const newestFirst = [...made].reverse();
    const expected: string[] = [];
    for (let b = 0; b < newestFirst.length; b += 3) {
      const block = newestFirst.slice(b, b + 3);
      expected.push(...block.filter((v) => v.inTitle).map((v) => v.id), ...block.filter((v) => !v.inTitle).map((v) => v.id));
    }
    const first = await allPages(['nebula']);
    expect(first.ids).toEqual(expected);
    expect(new Set(first.ids).size).toBe(8);
    // The same pages again: nothing moves; and pages longer than a block read three or four blocks at once.
    expect((await allPages(['nebula'])).ids).toEqual(expected);
    expect((await search.videos(filter(['nebula'], { limit: 7 }))).rows.map((r) => r.id)).toEqual(expected.slice(0, 7));
    expect((await search.videos(filter(['nebula'], { offset: 2, limit: 7 }))).rows.map((r) => r.id)).toEqual(expected.slice(2, 8));
    // Above the cap the first pages estimate, and the last page says where the list ends.
    expect(first.totals[0]!.counted).toBe(false);
    expect(first.totals[0]!.total).toBeGreaterThan(5);
    expect(first.totals.at(-1)!.total).toBe(8);
  });
});

describe('total', () => {
  it('is exact up to the cap, then an estimate that never claims less than a next page', async () => {
    for (let i = 0; i < 5; i++) await seed({ title: `Pulsar ${i}` });
    expect(await search.videos(filter(['pulsar']))).toMatchObject({ total: 5, counted: true });
    await seed({ title: 'Pulsar 5' });
    const page = await search.videos(filter(['pulsar']));
    expect(page.counted).toBe(false);
    expect(page.total).toBeGreaterThanOrEqual(6);
    // A page past the end finds nothing and says the list ended before it.
    const past = await search.videos(filter(['pulsar'], { offset: 6 }));
    expect(past.rows).toEqual([]);
    expect(past.total).toBe(6);
    // A page that is full with more after it always claims at least one more.
    const second = await search.videos(filter(['pulsar'], { offset: 2 }));
    expect(second.rows).toHaveLength(2);
    expect(second.total).toBeGreaterThanOrEqual(5);
    // The last page, short or not, is exact.
    expect(await search.videos(filter(['pulsar'], { offset: 4 }))).toMatchObject({ total: 6 });
  });
});

describe('total without counting', () => {
  it('estimates a common search without a next page it cannot reach, and pages to its exact end', async () => {
    const few = createSearch(t.ctx.db, t.ctx.dialect, { window: 3, exactUpTo: 2 });
    for (let i = 0; i < 12; i++) await seed({ title: `Zircon ${i}` });
    const first = await few.videos(filter(['zircon']));
    expect(first.counted).toBe(false);
    expect(first.total).toBeGreaterThanOrEqual(3);
    // Never more than the videos that hold the word (SQLite knows how many do).
    if (t.ctx.dialect === 'sqlite') expect(first.total).toBeLessThanOrEqual(12);
    const pages = await allPages(['zircon'], {}, few);
    expect(new Set(pages.ids).size).toBe(12);
    expect(pages.totals.at(-1)!.total).toBe(12);
    for (const [i, p] of pages.totals.slice(0, -1).entries()) expect(p.total).toBeGreaterThan((i + 1) * 2);
  });

  it('counts exactly when the words are few, however new their videos', async () => {
    const few = createSearch(t.ctx.db, t.ctx.dialect, { window: 3, exactUpTo: 2 });
    for (let i = 0; i < 2; i++) await seed({ title: `Yarrow ${i}` });
    expect(await few.videos(filter(['yarrow']))).toMatchObject({ total: 2, counted: true });
  });
});

describe('the newest block found among the newest videos', () => {
  it('gives the same pages whether the block lies among the newest videos or far back', async () => {
    // Koalas are spread among the newest videos; wombats all older than sixty others. On PostgreSQL,
    // with statistics, the block is first looked for among the newest videos, which hold the koalas'
    // but none of the wombats', so the wombats are read again without the bound.
    const wombats: string[] = [];
    const koalas: string[] = [];
    for (let i = 0; i < 10; i++) wombats.push((await seed({ title: `Wombat ${i}` })).id);
    for (let i = 0; i < 60; i++) {
      if (i % 6 === 0) koalas.push((await seed({ title: `Koala ${i}` })).id);
      else await seed({ title: `Grass ${i}`, description: 'Nothing here' });
    }
    if (t.ctx.dialect === 'postgres') await sql`analyze videos`.execute(t.ctx.db);
    expect((await allPages(['wombat'])).ids).toEqual([...wombats].reverse());
    expect((await allPages(['koala'])).ids).toEqual([...koalas].reverse());
  });
});

describe('explicit sort', () => {
  it('orders by the column asked for, above and below the cap, the same either way', async () => {
    const views = [40, 10, 30, 20, 50, 0, 60];
    const rows = [];
    for (const [i, v] of views.entries()) rows.push(await seed({ title: `Meteor ${i}`, views: v, duration: 100 - v }));
    const byViews = [...rows].sort((a, b) => b.views - a.views).map((r) => r.id);
    const exact = createSearch(t.ctx.db, t.ctx.dialect, { window: 3, exactUpTo: 100 });
    for (const r of [search, exact]) {
      expect((await allPages(['meteor'], { byRelevance: false, sortBy: 'views', sortType: 'desc' }, r)).ids).toEqual(byViews);
      expect((await allPages(['meteor'], { byRelevance: false, sortBy: 'duration', sortType: 'asc' }, r)).ids).toEqual(byViews);
      expect((await allPages(['meteor'], { byRelevance: false, sortBy: 'createdAt', sortType: 'desc' }, r)).ids).toEqual(rows.map((x) => x.id).reverse());
    }
  });
});

describe('what is never found', () => {
  it('leaves out private, unlisted, unfinished and taken-down videos and those of banned owners', async () => {
    const banned = await t.signUp({ username: 'bannedone' });
    const shown = await seed({ title: 'Comet tail' });
    const hidden = [
      await seed({ title: 'Comet private', visibility: 'private' }),
      await seed({ title: 'Comet unlisted', visibility: 'unlisted' }),
      await seed({ title: 'Comet processing', status: 'processing' }),
      await seed({ title: 'Comet taken down' }),
      await seedVideo(t.ctx, banned.id, { title: 'Comet banned' }),
    ];
    await changeVideos(t.ctx, [hidden[3]!.id], { hidden_at: Date.now(), hidden_reason: 'Spam' });
    await t.ctx.db.updateTable('users').set({ banned_at: Date.now() }).where('id', '=', banned.id).execute();
    await refreshVideoAccess(t.ctx.db, { ownerId: banned.id });
    for (let i = 0; i < 6; i++) await seed({ title: `Comet ${i}` });

    for (const r of [search, createSearch(t.ctx.db, t.ctx.dialect, { window: 100, exactUpTo: 100 })]) {
      const found = [
        ...(await allPages(['comet'], {}, r)).ids,
        ...(await allPages(['comet'], { byRelevance: false, sortBy: 'views', sortType: 'desc' }, r)).ids,
        ...(await allPages(['comet'], { byRelevance: false, sortBy: 'createdAt', sortType: 'asc' }, r)).ids,
      ];
      expect(found).toContain(shown.id);
      for (const h of hidden) expect(found).not.toContain(h.id);
      expect(await r.matchingAmong(filter(['comet']), [shown.id, ...hidden.map((h) => h.id)])).toEqual(new Set([shown.id]));
    }
  });
});
