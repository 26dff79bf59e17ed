import { RelatedVideos, VideoPage } from '@reelhouse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeVideos, MISSING_ID, seedVideo } from '../../../test/support/seed.js';
import { signUpAs } from '../../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { newId } from '../../lib/ids.js';
import { refreshVideoAccess } from '../../db/video-access.js';
import { utcDay, type VideoRow } from '../videos/videos.repository.js';
import { DiscoveryRepository } from './discovery.repository.js';
import { DiscoveryService, RANKING_FRESH_MS } from './discovery.service.js';
import { TrendingRepository } from './trending.repository.js';

const API = '/api/v1';
const DAY = 86_400_000;

let t: TestApp;
let watcher: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  watcher = await t.signUp();
});
afterAll(() => t.close());

const related = (id: string, as?: SignedIn, query = '') => t.call({ method: 'GET', url: `${API}/videos/${id}/related${query}`, as });
const ids = (res: { data: { videos: { _id: string }[] } }) => res.data.videos.map((v) => v._id);

/** An account row written straight to the database (no password hashing): owners and viewers of the graphs. */
async function account(): Promise<string> {
  const id = newId();
  const now = Date.now();
  await t.ctx.db
    .insertInto('users')
    .values({
      id,
      username: `u${id.toLowerCase().replace(/[^a-z0-9]/g, '')}`,
      email: `${id}@example.com`,
      full_name: 'Graph Person',
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
  return id;
}

/** A video of its own channel, titled so that no two share a word: only co-watch relates them. */
async function loneVideo(title: string, overrides: Partial<VideoRow> = {}): Promise<VideoRow> {
  return seedVideo(t.ctx, await account(), { title, description: title, ...overrides });
}

/** Writes a new viewer's history by hand: the videos watched in this order, a minute apart. */
let clock = Date.now() - 30 * DAY;
async function watched(videos: VideoRow[]): Promise<void> {
  const user = await account();
  await t.ctx.db
    .insertInto('watch_history')
    .values(videos.map((v) => ({ user_id: user, video_id: v.id, watched_at: (clock += 60_000), position: null })))
    .execute();
}

describe('GET /videos/{id}/related', () => {
  it('ranks what viewers watched next by how many did, the very next one counting most', async () => {
    const [a, b, c, d, e] = await Promise.all(['Aardvark', 'Beluga', 'Capybara', 'Dugong', 'Echidna'].map((n) => loneVideo(n)));
    // The hand-made watch graph: after a, two viewers went to b, one to c and one to d; one more
    // went on from b to c (c is that viewer's second step after a: half weight).
    await watched([a!, b!, c!]);
    await watched([a!, b!]);
    await watched([a!, c!]);
    await watched([a!, d!]);
    // What came before a does not count as watched after it.
    await watched([e!, a!]);
    const res = await related(a!.id);
    expect(res.statusCode).toBe(200);
    expect(RelatedVideos.parse(res.data)).toBeTruthy();
    // b: 2, c: 1 + 0.5, d: 1.
    expect(ids(res)).toEqual([b!.id, c!.id, d!.id]);
    expect(res.data.videos[0]).toMatchObject({ title: 'Beluga', status: 'ready' });
    expect(ids(await related(a!.id, undefined, '?limit=2'))).toEqual([b!.id, c!.id]);
  });

  it('never lets two videos send viewers back and forth', async () => {
    const [x, y] = await Promise.all([loneVideo('Xylophone'), loneVideo('Yodel')]);
    await watched([x!, y!]);
    await watched([y!, x!]);
    const [small, large] = x!.id < y!.id ? [x!, y!] : [y!, x!];
    // Each is the other's only candidate: the smaller id keeps its pick, the larger passes it over.
    expect(ids(await related(small.id))).toEqual([large.id]);
    expect(ids(await related(large.id))).toEqual([]);
  });

  it('blends in the same channel and videos with similar words', async () => {
    const baker = await account();
    // The smallest id of all: each of its candidates picks it back first, and only the larger of
    // two videos passes over a pick that leads back, so here the whole blend shows.
    const bread = await seedVideo(t.ctx, baker, { id: `--${newId().slice(2)}`, title: 'Sourdough bread basics', description: 'Flour, water, salt' });
    const sibling = await seedVideo(t.ctx, baker, { title: 'Kitchen tour', description: 'Where it happens' });
    const alike = await loneVideo('Sourdough starter feeding');
    const unrelated = await loneVideo('Volcano documentary');
    const res = ids(await related(bread.id));
    expect(res).toContain(sibling.id);
    expect(res).toContain(alike.id);
    expect(res).not.toContain(unrelated.id);
    expect(res).not.toContain(bread.id);
  });

  it('only suggests listed videos, whatever viewers watched next', async () => {
    const start = await loneVideo('Marmot');
    const owner = await account();
    const banned = await account();
    const hidden = {
      private: await seedVideo(t.ctx, owner, { title: 'Private marmot', visibility: 'private' }),
      unlisted: await seedVideo(t.ctx, owner, { title: 'Unlisted marmot', visibility: 'unlisted' }),
      processing: await seedVideo(t.ctx, owner, { title: 'Processing marmot', status: 'processing', video_key: null }),
      takenDown: await seedVideo(t.ctx, owner, { title: 'Taken down marmot', hidden_at: Date.now(), hidden_reason: 'spam' }),
      banned: await seedVideo(t.ctx, banned, { title: 'Banned marmot' }),
    };
    await t.ctx.db.updateTable('users').set({ banned_at: Date.now() }).where('id', '=', banned).execute();
    await refreshVideoAccess(t.ctx.db, { ownerId: banned });
    for (const v of Object.values(hidden)) await watched([start, v]);
    const visible = await loneVideo('Ocelot');
    await watched([start, visible]);
    for (const as of [undefined, watcher]) {
      const res = await related(start.id, as);
      expect(res.statusCode).toBe(200);
      expect(ids(res)).toEqual([visible.id]);
    }
  });

  it('is 404 for a video the caller may not open, 400 for bad input', async () => {
    const owner = await t.signUp();
    const secret = await seedVideo(t.ctx, owner.id, { title: 'Secret', visibility: 'private' });
    expect((await related(secret.id)).statusCode).toBe(404);
    expect((await related(secret.id, watcher)).statusCode).toBe(404);
    expect((await related(secret.id, owner)).statusCode).toBe(200);
    expect((await related(secret.id, await signUpAs(t, 'admin'))).statusCode).toBe(200);
    expect((await related(MISSING_ID)).statusCode).toBe(404);
    expect((await related('bad id!')).statusCode).toBe(400);
    for (const limit of ['0', '25', 'many', '1.5']) {
      const res = await related(secret.id, owner, `?limit=${limit}`);
      expect(res.statusCode).toBe(400);
      expect(res.message).toContain('limit');
    }
    // An unlisted video has up next for anyone with its link.
    const unlisted = await seedVideo(t.ctx, owner.id, { title: 'Unlisted', visibility: 'unlisted' });
    expect((await related(unlisted.id)).statusCode).toBe(200);
  });

  it('tells a signed-in viewer where they stopped in each suggestion', async () => {
    const [p, q] = await Promise.all([loneVideo('Pangolin', { duration: 100 }), loneVideo('Quokka', { duration: 100 })]);
    await watched([p!, q!]);
    await t.call({ method: 'PATCH', url: `${API}/users/watch-history/${q!.id}`, payload: { position: 42 }, as: watcher });
    expect((await related(p!.id, watcher)).data.videos).toMatchObject([{ _id: q!.id, watchPosition: 42 }]);
    expect((await related(p!.id)).data.videos[0].watchPosition).toBeUndefined();
  });
});

describe('kept rankings', () => {
  const keptRow = (id: string) => t.ctx.db.selectFrom('related_rankings').selectAll().where('video_id', '=', id).executeTakeFirst();

  it('are reused within the freshness window and made again after it', async () => {
    const [a, b, c] = await Promise.all(['Anchovy', 'Bittern', 'Cassowary'].map((n) => loneVideo(n)));
    await watched([a!, b!]);
    // Watching drops no kept answer (up next lags by the answer cache's TTL): each ask below is made
    // afresh, so that only the kept ranking is in play.
    const afresh = async () => {
      await t.ctx.answers.changed();
      return ids(await related(a!.id, watcher));
    };
    expect(await afresh()).toEqual([b!.id]);
    const kept = await keptRow(a!.id);
    expect(JSON.parse(kept!.ranked)).toEqual([b!.id]);
    // Two viewers now go from a to c: a fresh ranking would put c first, the kept one does not.
    await watched([a!, c!]);
    await watched([a!, c!]);
    expect(await afresh()).toEqual([b!.id]);
    expect(Number((await keptRow(a!.id))!.made_at)).toBe(Number(kept!.made_at));
    // Older than the window: ranked afresh and kept again.
    await t.ctx.db
      .updateTable('related_rankings')
      .set({ made_at: Date.now() - RANKING_FRESH_MS - 1 })
      .where('video_id', '=', a!.id)
      .execute();
    expect(await afresh()).toEqual([c!.id, b!.id]);
    const remade = await keptRow(a!.id);
    expect(JSON.parse(remade!.ranked)).toEqual([c!.id, b!.id]);
    expect(Number(remade!.made_at)).toBeGreaterThan(Date.now() - RANKING_FRESH_MS);
  });

  it('asked for at once while missing, are made once', async () => {
    const [a, b] = await Promise.all(['Agouti', 'Binturong'].map((n) => loneVideo(n)));
    await watched([a!, b!]);
    const repo = new DiscoveryRepository(t.ctx.db);
    const coWatched = repo.coWatched.bind(repo);
    let rankings = 0;
    repo.coWatched = (id) => {
      if (id === a!.id) rankings++;
      return coWatched(id);
    };
    const service = new DiscoveryService({
      discovery: repo,
      trending: new TrendingRepository(t.ctx.db, t.ctx.dialect),
      videos: t.services.videos,
      search: t.services.search,
    });
    const answers = await Promise.all(Array.from({ length: 5 }, () => service.related(a!.id, null, 12)));
    expect(answers.map((r) => r.videos.map((v) => v._id))).toEqual(Array(5).fill([b!.id]));
    expect(rankings).toBe(1);
  });

  it('never show a video no longer listed or deleted, and go with their video', async () => {
    const [a, b, c, d] = await Promise.all(['Axolotl', 'Bandicoot', 'Caracal', 'Dingo'].map((n) => loneVideo(n)));
    await watched([a!, b!]);
    await watched([a!, b!]);
    await watched([a!, c!]);
    await watched([a!, d!]);
    await watched([a!, d!]);
    await watched([a!, d!]);
    expect(ids(await related(a!.id, watcher))).toEqual([d!.id, b!.id, c!.id]);
    const kept = await keptRow(a!.id);
    await changeVideos(t.ctx, [d!.id], { visibility: 'unlisted' });
    await t.ctx.db.deleteFrom('videos').where('id', '=', b!.id).execute();
    // The kept ranking still names both, but neither shows, first place included.
    for (const as of [undefined, watcher]) expect(ids(await related(a!.id, as))).toEqual([c!.id]);
    expect(await keptRow(a!.id)).toEqual(kept);
    await t.ctx.db.deleteFrom('videos').where('id', '=', a!.id).execute();
    expect(await keptRow(a!.id)).toBeUndefined();
  });
});

describe('GET /videos/trending', () => {
  const trending = (query = '', as?: SignedIn) => t.call({ method: 'GET', url: `${API}/videos/trending${query}`, as });
  const today = utcDay(Date.now());

  async function activity(video: VideoRow, views: Record<number, number>, likesToday = 0) {
    for (const [age, n] of Object.entries(views)) {
      await t.ctx.db
        .insertInto('video_daily_views')
        .values({ video_id: video.id, day: today - Number(age), views: n })
        .execute();
    }
    for (let i = 0; i < likesToday; i++) {
      await t.ctx.db
        .insertInto('likes')
        .values({ user_id: await account(), target_type: 'video', target_id: video.id, created_at: Date.now() - i })
        .execute();
    }
  }

  it('ranks listed videos by views and likes of the last week, halving every two days', async () => {
    const fresh = await loneVideo('Fresh', { views: 10 });
    const older = await loneVideo('Older', { views: 1000 });
    const liked = await loneVideo('Liked', { views: 2 });
    const stale = await loneVideo('Stale', { views: 5000 });
    const hiddenHit = await loneVideo('Hidden hit');
    await activity(fresh, { 0: 10 }); // 10
    await activity(older, { 4: 30 }); // 30 x 2^-2 = 7.5
    await activity(liked, { 1: 2 }, 1); // 5 + 2 x 2^-0.5 = 6.41
    await activity(stale, { 8: 5000 }); // outside the window
    await activity(hiddenHit, { 0: 900 });
    await changeVideos(t.ctx, [hiddenHit.id], { visibility: 'unlisted' });
    // The list is worked out by a scheduled job: nothing shows before it runs.
    expect(ids(await trending('', watcher))).toEqual([]);
    await new TrendingRepository(t.ctx.db, t.ctx.dialect).rebuild(Date.now());
    // The job tells no change (trending lags by the answer cache's TTL): past it.
    await t.ctx.answers.changed();

    const res = await trending();
    expect(res.statusCode).toBe(200);
    expect(VideoPage.parse(res.data)).toBeTruthy();
    expect(ids(res)).toEqual([fresh.id, older.id, liked.id]);
    expect(res.data).toMatchObject({ totalDocs: 3, currentPage: 1, totalPages: 1, hasNextPage: false });
    const page2 = await trending('?pageSize=2&pageNumber=2', watcher);
    expect(ids(page2)).toEqual([liked.id]);
    expect(page2.data).toMatchObject({ totalDocs: 3, currentPage: 2, totalPages: 2, hasPrevPage: true, prevPage: 1 });
    expect(page2.data.videos[0].watchPosition).toBeNull();
    // Taken down or made private later: gone from trending at once, before the next rebuild.
    await changeVideos(t.ctx, [fresh.id], { hidden_at: Date.now(), hidden_reason: 'spam' });
    expect(ids(await trending())).toEqual([older.id, liked.id]);
    expect((await trending()).data).toMatchObject({ totalDocs: 2 });
    // Deleted: gone too, and the next rebuild does not bring back the taken-down one.
    await t.ctx.db.deleteFrom('videos').where('id', '=', older.id).execute();
    await t.ctx.answers.changed(); // as a real deletion tells
    expect(ids(await trending('', watcher))).toEqual([liked.id]);
    await new TrendingRepository(t.ctx.db, t.ctx.dialect).rebuild(Date.now());
    expect(ids(await trending('', watcher))).toEqual([liked.id]);
  });

  it('refuses bad paging', async () => {
    for (const q of ['?pageSize=51', '?pageNumber=0', '?pageSize=x']) {
      const res = await trending(q);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false });
    }
  });
});
