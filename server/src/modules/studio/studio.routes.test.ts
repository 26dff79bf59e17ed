import { StudioVideoPage } from '@reelhouse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedVideo } from '../../../test/support/seed.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

const API = '/api/v1';
let t: TestApp;
let owner: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp();
  other = await t.signUp();
});
afterAll(() => t.close());

describe('GET /studio/videos', () => {
  it("lists only the caller's videos, in every state, with their numbers, sorted and filtered", async () => {
    const ready = await seedVideo(t.ctx, owner.id, { title: 'Alpha', views: 30, likes_count: 4, comments_count: 2 });
    const failed = await seedVideo(t.ctx, owner.id, { title: 'Bravo', status: 'failed', failure_reason: 'The file could not be decoded', video_key: null });
    const processing = await seedVideo(t.ctx, owner.id, { title: 'Charlie', status: 'processing', progress: 40, video_key: null });
    const unlisted = await seedVideo(t.ctx, owner.id, { title: 'Delta', visibility: 'unlisted', views: 5 });
    const hidden = await seedVideo(t.ctx, owner.id, { title: 'Echo', hidden_at: Date.now(), hidden_reason: 'spam' });
    await seedVideo(t.ctx, other.id, { title: 'Not mine' });

    const all = await t.call({ method: 'GET', url: `${API}/studio/videos?sortBy=title&sortType=asc`, as: owner });
    expect(all.statusCode).toBe(200);
    const page = StudioVideoPage.parse(all.data);
    expect(page.videos.map((v) => v.title)).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo']);
    expect(page.totalDocs).toBe(5);
    expect(page.videos[0]).toMatchObject({ _id: ready.id, views: 30, likesCount: 4, commentsCount: 2, visibility: 'public', takenDown: false });
    expect(page.videos[1]).toMatchObject({ _id: failed.id, status: 'failed', failureReason: 'The file could not be decoded' });
    expect(page.videos[2]).toMatchObject({ _id: processing.id, status: 'processing', progress: 40 });
    expect(page.videos[4]).toMatchObject({ _id: hidden.id, takenDown: true });

    const byViews = await t.call({ method: 'GET', url: `${API}/studio/videos?sortBy=views&sortType=desc&pageSize=2`, as: owner });
    expect(byViews.data.videos.map((v: { _id: string }) => v._id)).toEqual([ready.id, unlisted.id]);
    expect(byViews.data).toMatchObject({ totalDocs: 5, hasNextPage: true });
    const onlyUnlisted = await t.call({ method: 'GET', url: `${API}/studio/videos?visibility=unlisted`, as: owner });
    expect(onlyUnlisted.data.videos.map((v: { _id: string }) => v._id)).toEqual([unlisted.id]);
    const onlyFailed = await t.call({ method: 'GET', url: `${API}/studio/videos?status=failed`, as: owner });
    expect(onlyFailed.data.videos.map((v: { _id: string }) => v._id)).toEqual([failed.id]);
    const theirs = await t.call({ method: 'GET', url: `${API}/studio/videos`, as: other });
    expect(theirs.data.videos.map((v: { title: string }) => v.title)).toEqual(['Not mine']);
  });

  it('gives lives their live state and other videos none', async () => {
    const maker = await t.signUp();
    const plain = await seedVideo(t.ctx, maker.id, { title: 'Plain upload' });
    const made = await t.call({ method: 'POST', url: `${API}/live`, payload: { title: 'On air soon', description: 'A live' }, as: maker });
    expect(made.statusCode, made.body).toBe(201);
    const res = await t.call({ method: 'GET', url: `${API}/studio/videos`, as: maker });
    const page = StudioVideoPage.parse(res.data);
    const live = page.videos.find((v) => v._id === made.data.video._id);
    expect(live?.live).toMatchObject({ status: 'upcoming', viewers: 0, startedAt: null });
    expect(page.videos.find((v) => v._id === plain.id)).not.toHaveProperty('live');
  });

  it('needs a signed-in caller and checks its filters', async () => {
    expect((await t.call({ method: 'GET', url: `${API}/studio/videos` })).statusCode).toBe(401);
    const bad = await t.call({ method: 'GET', url: `${API}/studio/videos?status=deleted`, as: owner });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('status must be one of processing, ready, failed');
    expect((await t.call({ method: 'GET', url: `${API}/studio/videos?visibility=friends`, as: owner })).statusCode).toBe(400);
  });
});
