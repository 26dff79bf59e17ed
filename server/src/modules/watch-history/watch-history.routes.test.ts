import { WatchHistoryPage } from '@reelhouse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { newId } from '../../lib/ids.js';
import { changeVideos, seedVideo } from '../../../test/support/seed.js';
import { WatchHistoryRepository } from './watch-history.repository.js';
import { MAX_HISTORY_ENTRIES } from './watch-history.service.js';

const API = '/api/v1';
let t: TestApp;
let owner: SignedIn;
let viewer: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp();
  viewer = await t.signUp();
});
afterAll(() => t.close());

const record = (videoId: string, as?: SignedIn) => t.call({ method: 'PATCH', url: `${API}/users/watch-history/${videoId}`, as });
const history = (as: SignedIn | undefined, query = '') => t.call({ method: 'GET', url: `${API}/users/watch-history/${query}`, as });
const ids = (res: { data: { watchHistory: { _id: string }[] } }) => res.data.watchHistory.map((v) => v._id);

describe('PATCH /users/watch-history/{videoId}', () => {
  it('needs a signed-in user', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const res = await record(video.id);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, data: null });
  });

  it('is 404 for missing or hidden videos and 400 for a malformed id', async () => {
    expect((await record(newId(), viewer)).statusCode).toBe(404);
    expect((await record('bad id', viewer)).statusCode).toBe(400);
    const hidden = await seedVideo(t.ctx, owner.id, { visibility: 'private' });
    const processing = await seedVideo(t.ctx, owner.id, { status: 'processing' });
    expect((await record(hidden.id, viewer)).statusCode).toBe(404);
    expect((await record(processing.id, viewer)).statusCode).toBe(404);
    // The owner may watch their own hidden video.
    const own = await record(hidden.id, owner);
    expect(own.statusCode).toBe(200);
    // Clients of the contract keep this answer as the signed-in user: it is exactly GET /users/user/current's.
    const current = await t.call({ method: 'GET', url: '/api/v1/users/user/current', as: owner });
    expect(own.json()).toEqual({ statusCode: 200, success: true, message: 'Watch history updated', data: current.data });
    expect(own.data).toMatchObject({ _id: owner.id, username: owner.username });
  });
});

describe('PATCH /users/watch-history/{videoId} with a position', () => {
  const save = (videoId: string, payload: unknown, as?: SignedIn) =>
    t.call({ method: 'PATCH', url: `${API}/users/watch-history/${videoId}`, payload: payload as object, as });
  const positionIn = async (url: string, as?: SignedIn) => (await t.call({ method: 'GET', url, as })).data;

  it('keeps where the viewer stopped, for them only, and answers the signed-in user as before', async () => {
    const user = await t.signUp();
    const video = await seedVideo(t.ctx, owner.id, { duration: 120 });
    const res = await save(video.id, { position: 83.5 }, user);
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ _id: user.id, username: user.username });
    expect((await positionIn(`${API}/videos/${video.id}`, user)).watchPosition).toBe(83.5);
    // Nobody else sees it; signed out there is none.
    expect((await positionIn(`${API}/videos/${video.id}`, viewer)).watchPosition).toBeNull();
    expect((await positionIn(`${API}/videos/${video.id}`)).watchPosition).toBeNull();
    // A call without a body (existing clients) moves the video up but keeps the position.
    expect((await record(video.id, user)).statusCode).toBe(200);
    expect((await positionIn(`${API}/videos/${video.id}`, user)).watchPosition).toBe(83.5);
    // Lists carry it for the signed-in viewer's cards, and only for them.
    const mine = (await positionIn(`${API}/users/watch-history/`, user)).watchHistory;
    expect(mine.find((v: { _id: string }) => v._id === video.id).watchPosition).toBe(83.5);
    const listed = (await positionIn(`${API}/videos/?pageSize=50`, user)).videos.find((v: { _id: string }) => v._id === video.id);
    expect(listed.watchPosition).toBe(83.5);
    const anonymous = (await positionIn(`${API}/videos/?pageSize=50`)).videos.find((v: { _id: string }) => v._id === video.id);
    expect(anonymous.watchPosition).toBeUndefined();
    // Never beyond the end of the video.
    await save(video.id, { position: 500 }, user);
    expect((await positionIn(`${API}/videos/${video.id}`, user)).watchPosition).toBe(120);
  });

  it('refuses a position that is not a number of seconds, and changes nothing', async () => {
    const user = await t.signUp();
    const video = await seedVideo(t.ctx, owner.id, { duration: 60 });
    await save(video.id, { position: 10 }, user);
    for (const position of [-1, '12', null, 1e9]) {
      const res = await save(video.id, { position }, user);
      expect(res.statusCode).toBe(400);
      expect(res.message).toContain('position');
    }
    expect((await positionIn(`${API}/videos/${video.id}`, user)).watchPosition).toBe(10);
    expect((await save(video.id, { position: 5 })).statusCode).toBe(401);
  });
});

describe('GET /users/watch-history/', () => {
  it('needs a signed-in user and valid paging', async () => {
    expect((await history(undefined)).statusCode).toBe(401);
    const bad = await history(viewer, '?sortBy=watched_at');
    expect(bad.statusCode).toBe(400);
    expect(bad.message).toContain('sortBy must be one of createdAt, views, duration, title');
    expect((await history(viewer, '?pageSize=100')).statusCode).toBe(400);
  });

  it('keeps each video once, newest first, and moves a re-watched one to the top', async () => {
    const user = await t.signUp();
    const a = await seedVideo(t.ctx, owner.id, { title: 'Alpha', views: 30, duration: 5 });
    const b = await seedVideo(t.ctx, owner.id, { title: 'Bravo', views: 10, duration: 50 });
    const c = await seedVideo(t.ctx, owner.id, { title: 'Charlie', views: 20, duration: 20 });
    for (const v of [a, b, c]) expect((await record(v.id, user)).statusCode).toBe(200);

    const first = await history(user);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ statusCode: 200, success: true });
    expect(WatchHistoryPage.parse(first.data)).toBeTruthy();
    expect(ids(first)).toEqual([c.id, b.id, a.id]);
    expect(first.data.watchHistory[0]).toMatchObject({ title: 'Charlie', owner: { _id: owner.id, username: owner.username } });
    expect(first.data).toMatchObject({ totalDocs: 3, currentPage: 1, totalPages: 1, hasNextPage: false, nextPage: null });

    await record(a.id, user);
    const again = await history(user);
    expect(ids(again)).toEqual([a.id, c.id, b.id]);
    expect(again.data.totalDocs).toBe(3);
    const times = again.data.watchHistory.map((v: { watchedAt: string }) => Date.parse(v.watchedAt));
    expect(times[0]).toBeGreaterThan(times[1]);
    expect(times[1]).toBeGreaterThan(times[2]);

    // createdAt means the time watched here.
    expect(ids(await history(user, '?sortBy=createdAt&sortType=asc'))).toEqual([b.id, c.id, a.id]);
    expect(ids(await history(user, '?sortBy=title&sortType=asc'))).toEqual([a.id, b.id, c.id]);
    expect(ids(await history(user, '?sortBy=views&sortType=desc'))).toEqual([a.id, c.id, b.id]);
    expect(ids(await history(user, '?sortBy=duration&sortType=asc'))).toEqual([a.id, c.id, b.id]);

    const p2 = await history(user, '?pageSize=2&pageNumber=2');
    expect(ids(p2)).toEqual([b.id]);
    expect(p2.data).toMatchObject({ totalDocs: 3, currentPage: 2, totalPages: 2, hasNextPage: false, hasPrevPage: true, prevPage: 1, nextPage: null });

    // Nobody else sees this history.
    expect((await history(viewer)).data.watchHistory.map((v: { _id: string }) => v._id)).not.toContain(a.id);
  });

  it('leaves out videos that became hidden and forgets deleted ones', async () => {
    const user = await t.signUp();
    const stays = await seedVideo(t.ctx, owner.id);
    const hides = await seedVideo(t.ctx, owner.id);
    const goes = await seedVideo(t.ctx, owner.id);
    for (const v of [stays, hides, goes]) await record(v.id, user);
    await changeVideos(t.ctx, [hides.id], { visibility: 'private' });
    await t.ctx.db.deleteFrom('videos').where('id', '=', goes.id).execute();
    const res = await history(user);
    expect(ids(res)).toEqual([stays.id]);
    expect(res.data.totalDocs).toBe(1);
  });

  it(`keeps at most ${MAX_HISTORY_ENTRIES} entries, dropping the oldest`, async () => {
    const user = await t.signUp();
    const videos: VideoRow[] = [];
    for (let i = 0; i < MAX_HISTORY_ENTRIES + 3; i++) videos.push(await seedVideo(t.ctx, owner.id, { title: `Clip ${i}` }));
    const repo = new WatchHistoryRepository(t.ctx.db);
    // Older watches, then the last one through the API.
    for (let i = 0; i < videos.length - 1; i++) await repo.record(user.id, videos[i]!.id, 1_000 + i, MAX_HISTORY_ENTRIES);
    expect((await record(videos.at(-1)!.id, user)).statusCode).toBe(200);

    const rows = await t.ctx.db.selectFrom('watch_history').select('video_id').where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(MAX_HISTORY_ENTRIES);
    const kept = new Set(rows.map((r) => r.video_id));
    for (const gone of videos.slice(0, 3)) expect(kept.has(gone.id)).toBe(false);
    const page = await history(user, '?pageSize=50');
    expect(page.data.totalDocs).toBe(MAX_HISTORY_ENTRIES);
    expect(page.data.totalPages).toBe(4);
    expect(ids(page)[0]).toBe(videos.at(-1)!.id);
    expect(ids(page)[1]).toBe(videos.at(-2)!.id);
  });
});
