import { VideoDetail, VideoPage } from '@reelhouse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids.js';
import { seedVideo } from '../../../test/support/seed.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import type { VideoRow } from './videos.repository.js';

const API = '/api/v1';

const ids = (res: { data: { videos: { _id: string }[] } }) => res.data.videos.map((v) => v._id);

let t: TestApp;
let owner: SignedIn;
let other: SignedIn;
let v: Record<string, VideoRow>;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp({ username: 'rexkeeper', fullName: 'Tyrannosaurus Keeper' });
  other = await t.signUp({ username: 'pastamaker', fullName: 'Paula Pasta' });
  v = {
    // Oldest first: created_at grows with each seed.
    titleMatch: await seedVideo(t.ctx, owner.id, { title: 'Dinosaurs of the Cretaceous', description: 'Fossils and bones', views: 50, duration: 30 }),
    descMatch: await seedVideo(t.ctx, other.id, { title: 'Cooking for children', description: 'A dinosaur-shaped pasta recipe', views: 5, duration: 300 }),
    near: await seedVideo(t.ctx, other.id, { title: 'Nearby quarry tour', description: 'Stones', views: 7, duration: 90 }),
    hiddenUnpublished: await seedVideo(t.ctx, owner.id, { title: 'Dinosaur secrets', visibility: 'private' }),
    hiddenProcessing: await seedVideo(t.ctx, owner.id, { title: 'Dinosaur draft', status: 'processing', progress: 40, video_key: null }),
    hiddenFailed: await seedVideo(t.ctx, owner.id, {
      title: 'Dinosaur broken',
      status: 'failed',
      failure_reason: 'The file could not be decoded',
      video_key: null,
    }),
  };
});
afterAll(() => t.close());

describe('GET /videos/', () => {
  it('lists only ready, published videos, newest first, with page fields', async () => {
    const res = await t.call({ method: 'GET', url: `${API}/videos/` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ statusCode: 200, success: true });
    expect(VideoPage.parse(res.data)).toBeTruthy();
    expect(ids(res)).toEqual([v.near!.id, v.descMatch!.id, v.titleMatch!.id]);
    expect(res.data).toMatchObject({ totalDocs: 3, currentPage: 1, totalPages: 1, hasNextPage: false, hasPrevPage: false, nextPage: null, prevPage: null });
    const card = res.data.videos[2];
    expect(card).toMatchObject({
      title: 'Dinosaurs of the Cretaceous',
      views: 50,
      duration: 30,
      isPublished: true,
      status: 'ready',
      owner: { _id: owner.id, username: 'rexkeeper', fullName: 'Tyrannosaurus Keeper', avatar: { url: '/static/default-avatar.svg' } },
    });
    expect(card.thumbnail.url).toBe(`/media/videos/${v.titleMatch!.id}/thumbnail.webp`);
    expect(card.videoFile.url).toBe(`/media/${v.titleMatch!.video_key}`);
    expect(new Date(card.createdAt).getTime()).toBe(v.titleMatch!.created_at);
  });

  it('shows the owner every state of their own videos when they ask for their channel', async () => {
    const mine = await t.call({ method: 'GET', url: `${API}/videos/?userId=${owner.id}`, as: owner });
    expect(mine.statusCode).toBe(200);
    expect(new Set(ids(mine))).toEqual(new Set([v.titleMatch!.id, v.hiddenUnpublished!.id, v.hiddenProcessing!.id, v.hiddenFailed!.id]));
    const processing = mine.data.videos.find((x: { _id: string }) => x._id === v.hiddenProcessing!.id);
    expect(processing).toMatchObject({ status: 'processing', progress: 40, videoFile: { url: '' } });

    for (const as of [other, undefined]) {
      const theirs = await t.call({ method: 'GET', url: `${API}/videos/?userId=${owner.id}`, as });
      expect(ids(theirs)).toEqual([v.titleMatch!.id]);
    }
    // The home feed is public even for the owner.
    const home = await t.call({ method: 'GET', url: `${API}/videos/`, as: owner });
    expect(ids(home)).not.toContain(v.hiddenUnpublished!.id);
  });

  it('sorts by any allowed field in either direction', async () => {
    const byViews = await t.call({ method: 'GET', url: `${API}/videos/?sortBy=views&sortType=asc` });
    expect(ids(byViews)).toEqual([v.descMatch!.id, v.near!.id, v.titleMatch!.id]);
    const byDuration = await t.call({ method: 'GET', url: `${API}/videos/?sortBy=duration&sortType=desc` });
    expect(ids(byDuration)).toEqual([v.descMatch!.id, v.near!.id, v.titleMatch!.id]);
    const byTitle = await t.call({ method: 'GET', url: `${API}/videos/?sortBy=title&sortType=asc` });
    expect(byTitle.data.videos.map((x: { title: string }) => x.title)).toEqual(['Cooking for children', 'Dinosaurs of the Cretaceous', 'Nearby quarry tour']);
    const oldest = await t.call({ method: 'GET', url: `${API}/videos/?sortBy=createdAt&sortType=asc` });
    expect(ids(oldest)).toEqual([v.titleMatch!.id, v.descMatch!.id, v.near!.id]);
  });

  it('rejects unknown sort values and bad paging with the allowed values', async () => {
    const badSort = await t.call({ method: 'GET', url: `${API}/videos/?sortBy=owner_id` });
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json()).toMatchObject({ success: false, statusCode: 400 });
    expect(badSort.message).toContain('sortBy must be one of createdAt, views, duration, title');
    expect(badSort.data.errors).toEqual([expect.objectContaining({ path: 'sortBy' })]);

    const badType = await t.call({ method: 'GET', url: `${API}/videos/?sortType=sideways` });
    expect(badType.statusCode).toBe(400);
    expect(badType.message).toContain('sortType must be one of asc, desc');
    for (const q of ['pageSize=51', 'pageSize=0', 'pageNumber=0', 'pageNumber=abc', 'userId=a', `query=${'x'.repeat(201)}`]) {
      const res = await t.call({ method: 'GET', url: `${API}/videos/?${q}` });
      expect(res.statusCode, q).toBe(400);
      expect(res.data.errors.length, q).toBeGreaterThan(0);
    }
  });
});

describe('paging', () => {
  it('answers every page field and never repeats or skips a video', async () => {
    const author = await t.signUp();
    const seeded = [];
    // Equal creation times: the id breaks the tie, so pages stay stable.
    for (let i = 0; i < 5; i++) seeded.push(await seedVideo(t.ctx, author.id, { title: `Episode ${i}`, created_at: 42, updated_at: 42 }));
    const url = (n: number) => `${API}/videos/?userId=${author.id}&pageSize=2&pageNumber=${n}`;
    const p1 = await t.call({ method: 'GET', url: url(1) });
    const p2 = await t.call({ method: 'GET', url: url(2) });
    const p3 = await t.call({ method: 'GET', url: url(3) });
    const p4 = await t.call({ method: 'GET', url: url(4) });
    expect(p1.data).toMatchObject({ totalDocs: 5, currentPage: 1, totalPages: 3, hasNextPage: true, hasPrevPage: false, nextPage: 2, prevPage: null });
    expect(p2.data).toMatchObject({ totalDocs: 5, currentPage: 2, totalPages: 3, hasNextPage: true, hasPrevPage: true, nextPage: 3, prevPage: 1 });
    expect(p3.data).toMatchObject({ totalDocs: 5, currentPage: 3, totalPages: 3, hasNextPage: false, hasPrevPage: true, nextPage: null, prevPage: 2 });
    expect(p4.data).toMatchObject({ totalDocs: 5, currentPage: 4, hasNextPage: false, videos: [] });
    const all = [...ids(p1), ...ids(p2), ...ids(p3)];
    expect(all).toHaveLength(5);
    expect(new Set(all)).toEqual(new Set(seeded.map((s) => s.id)));

    const dflt = await t.call({ method: 'GET', url: `${API}/videos/?userId=${author.id}` });
    expect(dflt.data.videos).toHaveLength(5);
    expect(dflt.data.totalPages).toBe(1);
  });
});

describe('search', () => {
  const search = (q: string, extra = '') => t.call({ method: 'GET', url: `${API}/videos/?query=${encodeURIComponent(q)}${extra}` });

  it('finds words by prefix in titles, descriptions and owner names, title matches first', async () => {
    const res = await search('dino');
    expect(res.statusCode).toBe(200);
    // "Dinosaurs" is in one title, "dinosaur" in another video's description; hidden ones never show.
    expect(ids(res)).toEqual([v.titleMatch!.id, v.descMatch!.id]);
    expect(res.data.totalDocs).toBe(2);

    expect(ids(await search('fossil'))).toEqual([v.titleMatch!.id]);
    expect(ids(await search('tyranno'))).toEqual([v.titleMatch!.id]);
    expect(ids(await search('rexkee'))).toEqual([v.titleMatch!.id]);
    expect(ids(await search('paula'))).toEqual([v.near!.id, v.descMatch!.id]);
    expect(ids(await search('DINO PASTA'))).toEqual([v.descMatch!.id]);
    const all = await t.call({ method: 'GET', url: `${API}/videos/` });
    expect(ids(await search('   '))).toEqual(ids(all));
    expect(ids(await search('zebra'))).toEqual([]);
  });

  it('lets an explicit sortBy win over relevance', async () => {
    const res = await search('dino', '&sortBy=createdAt&sortType=desc');
    expect(ids(res)).toEqual([v.descMatch!.id, v.titleMatch!.id]);
  });

  it("searches one channel, including the owner's hidden videos for the owner", async () => {
    expect(ids(await search('dino', `&userId=${other.id}`))).toEqual([v.descMatch!.id]);
    const own = await search('dinosaur', `&userId=${owner.id}`);
    expect(own.data.totalDocs).toBe(1);
    const asOwner = await t.call({ method: 'GET', url: `${API}/videos/?query=dinosaur&userId=${owner.id}`, as: owner });
    expect(asOwner.data.totalDocs).toBe(4);
    expect(ids(asOwner)[0]).not.toBe(undefined);
  });

  it('treats quotes, stars, brackets, dashes, colons, apostrophes and operators as plain text', async () => {
    const dino = ids(await search('dino'));
    for (const q of ['"dino', 'dino"', '"dino"', 'dino*', '*dino', '(dino', 'dino)', '-dino', 'dino:', "'dino'", "dino's"]) {
      const res = await search(q);
      expect(res.statusCode, q).toBe(200);
      // "s" is a word too: only the video with "dinosaur-shaped" has both.
      if (q === "dino's") expect(ids(res), q).toEqual([v.descMatch!.id]);
      else expect(ids(res), q).toEqual(dino);
    }
    // As operators these would widen the search; as words they must be in the video too.
    expect(ids(await search('dino OR pasta'))).toEqual([]);
    // "and" is a word of "Fossils and bones".
    expect(ids(await search('dino AND'))).toEqual([v.titleMatch!.id]);
    expect(ids(await search('NOT dino'))).toEqual([]);
    expect(ids(await search('NEAR(quarry stones)'))).toEqual([v.near!.id]);
    expect(ids(await search('near'))).toEqual([v.near!.id]);
    expect(ids(await search('title:dino'))).toEqual([]);
    for (const q of ['"', '*', '(', ')', '-', ':', "'", '""', '"*"', 'OR', 'NEAR', 'AND', 'NOT', '^', '{}', '\\', '%', '_', '&', '|', '!', '<->']) {
      const res = await search(q);
      expect(res.statusCode, q).toBe(200);
      if (!/^[A-Z]+$/.test(q)) expect(res.data.totalDocs, q).toBe(0);
    }
  });

  it('splits dotted names and words the same way on both databases', async () => {
    const dotted = await t.signUp({ username: 'jane.paleo', fullName: 'Jane Q. Digger' });
    const row = await seedVideo(t.ctx, dotted.id, { title: 'Node.js for fossil hunters', description: 'Mail me at dig@site.example' });
    for (const q of ['paleo', 'jane.paleo', 'js', 'node.js', 'digger', 'site', 'example', 'dig@site']) {
      expect(ids(await search(q)), q).toEqual([row.id]);
    }
  });

  it('follows title edits and owner renames', async () => {
    const renamer = await t.signUp({ username: 'oldname', fullName: 'Somebody' });
    const row = await seedVideo(t.ctx, renamer.id, { title: 'Mammoth migration' });
    expect(ids(await search('mammoth'))).toEqual([row.id]);
    await t.ctx.db.updateTable('videos').set({ title: 'Woolly herd' }).where('id', '=', row.id).execute();
    await t.ctx.answers.changed();
    expect(ids(await search('mammoth'))).toEqual([]);
    expect(ids(await search('woolly'))).toEqual([row.id]);
    const renamed = await t.call({ method: 'PATCH', url: `${API}/users/update-account`, as: renamer, payload: { username: 'glacierfan' } });
    expect(renamed.statusCode).toBe(200);
    expect(ids(await search('glacier'))).toEqual([row.id]);
    expect(ids(await search('oldname'))).toEqual([]);
  });
});

describe('GET /videos/{id}', () => {
  it("answers the player page's video to anyone", async () => {
    await t.ctx.db.insertInto('likes').values({ user_id: other.id, target_type: 'video', target_id: v.titleMatch!.id, created_at: 1 }).execute();
    await t.ctx.db
      .updateTable('videos')
      .set({ likes_count: 1, comments_count: 2, hls_key: `videos/${v.titleMatch!.id}/hls/master.m3u8` })
      .where('id', '=', v.titleMatch!.id)
      .execute();
    await t.ctx.db.insertInto('subscriptions').values({ subscriber_id: other.id, channel_id: owner.id, created_at: 1 }).execute();
    await t.ctx.db.updateTable('users').set({ subscribers_count: 1 }).where('id', '=', owner.id).execute();

    const anon = await t.call({ method: 'GET', url: `${API}/videos/${v.titleMatch!.id}` });
    expect(anon.statusCode).toBe(200);
    expect(anon.json()).toMatchObject({ statusCode: 200, success: true, message: 'Video fetched' });
    const detail = VideoDetail.parse(anon.data);
    expect(detail).toMatchObject({
      _id: v.titleMatch!.id,
      title: 'Dinosaurs of the Cretaceous',
      likesCount: 1,
      commentsCount: 2,
      isLiked: false,
      failureReason: null,
      width: v.titleMatch!.width,
      height: v.titleMatch!.height,
      storyboard: null,
      hls: { url: `/media/videos/${v.titleMatch!.id}/hls/master.m3u8` },
      owner: { _id: owner.id, username: 'rexkeeper', subscribersCount: 1, isSubscribed: false },
      chapters: [],
    });

    const liker = await t.call({ method: 'GET', url: `${API}/videos/${v.titleMatch!.id}`, as: other });
    expect(liker.data).toMatchObject({ isLiked: true, owner: { isSubscribed: true } });
    const self = await t.call({ method: 'GET', url: `${API}/videos/${v.titleMatch!.id}`, as: owner });
    expect(self.data).toMatchObject({ isLiked: false, owner: { isSubscribed: false } });
  });

  it('answers the chapters its description names, within its duration', async () => {
    const description =
      'A tour of the quarry.\r\n\r\n0:00 Arrival\r\n[0:20] The cliff – and the view\r\n0:45 | Fossils\r\n2:00 After the end\r\nMore at 1:30pm.';
    const row = await seedVideo(t.ctx, owner.id, { title: 'Quarry chapters', description, duration: 60 });
    const res = await t.call({ method: 'GET', url: `${API}/videos/${row.id}` });
    expect(res.statusCode).toBe(200);
    expect(VideoDetail.parse(res.data).chapters).toEqual([
      { start: 0, title: 'Arrival' },
      { start: 20, title: 'The cliff – and the view' },
      { start: 45, title: 'Fossils' },
    ]);
    expect(res.data.description).toBe(description);

    // Two chapters are not enough: none at all.
    await t.ctx.db.updateTable('videos').set({ description: '0:00 Arrival\n0:20 The cliff' }).where('id', '=', row.id).execute();
    // As every real edit does: the answer kept before it is not served again.
    await t.ctx.answers.changed();
    const fewer = await t.call({ method: 'GET', url: `${API}/videos/${row.id}`, as: other });
    expect(fewer.data.chapters).toEqual([]);
  });

  it('is 404 for hidden videos except to their owner', async () => {
    for (const hidden of [v.hiddenUnpublished!, v.hiddenProcessing!, v.hiddenFailed!]) {
      for (const as of [other, undefined]) {
        const res = await t.call({ method: 'GET', url: `${API}/videos/${hidden.id}`, as });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ success: false, data: null, message: 'Video not found' });
      }
      const mine = await t.call({ method: 'GET', url: `${API}/videos/${hidden.id}`, as: owner });
      expect(mine.statusCode).toBe(200);
    }
    const failed = await t.call({ method: 'GET', url: `${API}/videos/${v.hiddenFailed!.id}`, as: owner });
    expect(failed.data).toMatchObject({ status: 'failed', failureReason: 'The file could not be decoded', videoFile: { url: '' } });
    const unpublished = await t.call({ method: 'GET', url: `${API}/videos/${v.hiddenUnpublished!.id}`, as: owner });
    expect(unpublished.data.isPublished).toBe(false);
  });

  it('is 404 for a missing id and 400 for a malformed one', async () => {
    const missing = await t.call({ method: 'GET', url: `${API}/videos/${newId()}` });
    expect(missing.statusCode).toBe(404);
    const bad = await t.call({ method: 'GET', url: `${API}/videos/a%20b` });
    expect(bad.statusCode).toBe(400);
    expect(bad.data.errors[0].path).toBe('id');
  });
});
