import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeVideos, MISSING_ID, seedVideo, videoRow } from '../../../test/support/seed.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

let t: TestApp;
let owner: SignedIn;
let viewer: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  [owner, viewer, other] = await Promise.all([t.signUp(), t.signUp(), t.signUp()]);
});
afterAll(() => t?.close());

const toggle = (type: string, id: string, as?: SignedIn, slash = '') => t.call({ method: 'POST', url: `/api/v1/likes/toggle/${type}/${id}${slash}`, as });
const likeRows = (id: string) => t.ctx.db.selectFrom('likes').select('user_id').where('target_id', '=', id).execute();

async function seedComment(videoId: string, as: SignedIn) {
  const res = await t.call({ method: 'POST', url: `/api/v1/comments/${videoId}`, payload: { content: 'a comment' }, as });
  expect(res.statusCode).toBe(201);
  return res.data._id as string;
}

describe('POST /likes/toggle/:contentType/:contentId/', () => {
  it('needs sign-in, in the words the client shows nothing of but the status', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const res = await toggle('video', video.id, undefined, '/');
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ success: false, data: null });
    expect((await videoRow(t.ctx, video.id)).likes_count).toBe(0);
  });

  it('likes and unlikes a video, with and without the trailing slash, keeping the counter', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const liked = await toggle('video', video.id, viewer, '/');
    expect(liked.statusCode).toBe(200);
    expect(liked.data).toEqual({ liked: true, likesCount: 1 });
    expect((await toggle('video', video.id, other)).data).toEqual({ liked: true, likesCount: 2 });
    expect((await toggle('video', video.id, owner)).data).toEqual({ liked: true, likesCount: 3 });
    expect((await toggle('video', video.id, viewer)).data).toEqual({ liked: false, likesCount: 2 });
    expect((await videoRow(t.ctx, video.id)).likes_count).toBe(2);
    expect(await likeRows(video.id)).toHaveLength(2);
  });

  it('likes a comment and keeps the comment counter', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const commentId = await seedComment(video.id, other);
    expect((await toggle('comment', commentId, viewer, '/')).data).toEqual({ liked: true, likesCount: 1 });
    expect((await toggle('comment', commentId, owner)).data).toEqual({ liked: true, likesCount: 2 });
    expect((await toggle('comment', commentId, owner)).data).toEqual({ liked: false, likesCount: 1 });
    const row = await t.ctx.db.selectFrom('comments').select('likes_count').where('id', '=', commentId).executeTakeFirstOrThrow();
    expect(row.likes_count).toBe(1);
    // A comment like never touches the video's counter.
    expect((await videoRow(t.ctx, video.id)).likes_count).toBe(0);
  });

  it('rejects an unknown content type and a malformed id', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const res = await toggle('playlist', video.id, viewer, '/');
    expect(res.statusCode).toBe(400);
    expect(res.data.errors[0]).toMatchObject({ path: 'contentType', message: 'contentType must be one of video, comment' });
    expect((await toggle('video', 'no!', viewer)).statusCode).toBe(400);
  });

  it('is 404 for a missing target, a hidden video, and a comment under a hidden video', async () => {
    expect((await toggle('video', MISSING_ID, viewer)).statusCode).toBe(404);
    expect((await toggle('comment', MISSING_ID, viewer)).statusCode).toBe(404);
    const video = await seedVideo(t.ctx, owner.id);
    const commentId = await seedComment(video.id, other);
    // The id of a comment is not the id of a video.
    expect((await toggle('video', commentId, viewer)).statusCode).toBe(404);
    await changeVideos(t.ctx, [video.id], { status: 'failed' });
    expect((await toggle('video', video.id, viewer)).statusCode).toBe(404);
    expect((await toggle('comment', commentId, viewer)).statusCode).toBe(404);
    expect((await toggle('video', video.id, owner)).data).toEqual({ liked: true, likesCount: 1 });
  });

  it('never counts a like twice when one user toggles many times at once', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const results = await Promise.all(Array.from({ length: 7 }, () => toggle('video', video.id, viewer)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const rows = await likeRows(video.id);
    expect(rows.length).toBeLessThanOrEqual(1);
    expect((await videoRow(t.ctx, video.id)).likes_count).toBe(rows.length);
  });

  it('counts exactly one like per user when many users toggle at once', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const commentId = await seedComment(video.id, owner);
    const users = await Promise.all(Array.from({ length: 4 }, () => t.signUp()));
    const results = await Promise.all(users.flatMap((u) => [toggle('video', video.id, u), toggle('comment', commentId, u)]));
    expect(results.every((r) => r.statusCode === 200 && r.data.liked === true)).toBe(true);
    expect((await videoRow(t.ctx, video.id)).likes_count).toBe(4);
    expect(await likeRows(video.id)).toHaveLength(4);
    const comment = await t.ctx.db.selectFrom('comments').select('likes_count').where('id', '=', commentId).executeTakeFirstOrThrow();
    expect(comment.likes_count).toBe(4);
    // And back down together.
    await Promise.all(users.map((u) => toggle('video', video.id, u)));
    expect((await videoRow(t.ctx, video.id)).likes_count).toBe(0);
    expect(await likeRows(video.id)).toHaveLength(0);
  });
});

describe('GET /likes/count/:contentId and GET /likes/:contentId', () => {
  it('answer a number and a boolean; false when signed out', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    await toggle('video', video.id, viewer);
    await toggle('video', video.id, other);
    const count = await t.call({ method: 'GET', url: `/api/v1/likes/count/${video.id}?contentType=video` });
    expect(count.statusCode).toBe(200);
    expect(count.data).toBe(2);
    expect((await t.call({ method: 'GET', url: `/api/v1/likes/${video.id}?contentType=video`, as: viewer })).data).toBe(true);
    expect((await t.call({ method: 'GET', url: `/api/v1/likes/${video.id}?contentType=video`, as: owner })).data).toBe(false);
    const anonymous = await t.call({ method: 'GET', url: `/api/v1/likes/${video.id}?contentType=video` });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.data).toBe(false);
  });

  it('work for comments', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const commentId = await seedComment(video.id, owner);
    await toggle('comment', commentId, viewer);
    expect((await t.call({ method: 'GET', url: `/api/v1/likes/count/${commentId}?contentType=comment` })).data).toBe(1);
    expect((await t.call({ method: 'GET', url: `/api/v1/likes/${commentId}?contentType=comment`, as: viewer })).data).toBe(true);
    // The wrong type for the id is a missing target.
    expect((await t.call({ method: 'GET', url: `/api/v1/likes/count/${commentId}?contentType=video` })).statusCode).toBe(404);
  });

  it('reject a missing or unknown contentType, and are 404 for missing or hidden targets', async () => {
    const video = await seedVideo(t.ctx, owner.id, { visibility: 'private' });
    for (const url of [`/api/v1/likes/count/${video.id}`, `/api/v1/likes/${video.id}?contentType=user`]) {
      const res = await t.call({ method: 'GET', url, as: owner });
      expect(res.statusCode).toBe(400);
      expect(res.data.errors[0].path).toBe('contentType');
    }
    expect((await t.call({ method: 'GET', url: `/api/v1/likes/count/${MISSING_ID}?contentType=video` })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/v1/likes/${MISSING_ID}?contentType=comment`, as: viewer })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/v1/likes/count/${video.id}?contentType=video`, as: viewer })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/v1/likes/${video.id}?contentType=video` })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/v1/likes/count/${video.id}?contentType=video`, as: owner })).data).toBe(0);
  });
});

describe('GET /likes/videos', () => {
  it('needs sign-in', async () => {
    expect((await t.call({ method: 'GET', url: '/api/v1/likes/videos' })).statusCode).toBe(401);
  });

  it("lists the caller's liked videos, newest like first, as video cards, skipping what they can no longer see", async () => {
    const fan = await t.signUp();
    const a = await seedVideo(t.ctx, owner.id, { title: 'Alpha', views: 5 });
    const b = await seedVideo(t.ctx, other.id, { title: 'Bravo', views: 50 });
    const c = await seedVideo(t.ctx, owner.id, { title: 'Charlie', views: 1 });
    const own = await seedVideo(t.ctx, fan.id, { title: 'Own draft', visibility: 'private' });
    for (const v of [b, a, c, own]) {
      expect((await toggle('video', v.id, fan)).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 3));
    }
    // Someone else's like does not show up in fan's list.
    await toggle('video', a.id, viewer);

    const res = await t.call({ method: 'GET', url: '/api/v1/likes/videos', as: fan });
    expect(res.statusCode).toBe(200);
    expect(res.data.videos.map((v: { title: string }) => v.title)).toEqual(['Own draft', 'Charlie', 'Alpha', 'Bravo']);
    expect(res.data).toMatchObject({ totalDocs: 4, currentPage: 1, totalPages: 1, hasNextPage: false });
    const card = res.data.videos.find((v: { _id: string }) => v._id === b.id);
    expect(card).toEqual({
      _id: b.id,
      title: 'Bravo',
      description: b.description,
      duration: 12.5,
      views: 50,
      createdAt: new Date(b.created_at).toISOString(),
      updatedAt: new Date(b.updated_at).toISOString(),
      isPublished: true,
      visibility: 'public',
      publishAt: null,
      status: 'ready',
      progress: 100,
      thumbnail: { url: t.ctx.storage.url(b.thumbnail_key) },
      videoFile: { url: t.ctx.storage.url(b.video_key!) },
      owner: { _id: other.id, username: other.username, fullName: expect.any(String), avatar: { url: '/static/default-avatar.svg' } },
    });

    // c is unpublished by its owner: gone from fan's list, but still liked.
    await changeVideos(t.ctx, [c.id], { visibility: 'private' });
    const after = await t.call({ method: 'GET', url: '/api/v1/likes/videos?pageSize=2', as: fan });
    expect(after.data.videos.map((v: { title: string }) => v.title)).toEqual(['Own draft', 'Alpha']);
    expect(after.data).toMatchObject({ totalDocs: 3, totalPages: 2, hasNextPage: true, nextPage: 2 });
    const sorted = await t.call({ method: 'GET', url: '/api/v1/likes/videos?sortBy=views&sortType=desc', as: fan });
    expect(sorted.data.videos.map((v: { title: string }) => v.title)).toEqual(['Bravo', 'Alpha', 'Own draft']);
  });

  it('rejects unknown sort and paging values', async () => {
    for (const q of ['sortBy=owner_id', 'sortType=up', 'pageSize=100']) {
      const res = await t.call({ method: 'GET', url: `/api/v1/likes/videos?${q}`, as: viewer });
      expect(res.statusCode).toBe(400);
      expect(res.data.errors.length).toBe(1);
    }
  });
});
