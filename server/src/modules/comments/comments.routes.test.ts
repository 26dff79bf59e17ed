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

const post = (videoId: string, content: unknown, as?: SignedIn) => t.call({ method: 'POST', url: `/api/v1/comments/${videoId}`, payload: { content }, as });

describe('POST /comments/:videoId', () => {
  it('needs sign-in', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const res = await post(video.id, 'hello');
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ statusCode: 401, data: null, success: false });
    expect((await videoRow(t.ctx, video.id)).comments_count).toBe(0);
  });

  it('adds a trimmed comment, answers 201 with it and counts it on the video', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const res = await post(video.id, '  Nice one  ', viewer);
    expect(res.statusCode).toBe(201);
    expect(JSON.parse(res.body)).toMatchObject({ statusCode: 201, success: true });
    expect(res.data).toMatchObject({
      content: 'Nice one',
      video: video.id,
      likesCount: 0,
      isLiked: false,
      owner: { _id: viewer.id, username: viewer.username, avatar: { url: '/static/default-avatar.svg' } },
    });
    expect(res.data.owner.fullName).toMatch(/^User /);
    expect(new Date(res.data.createdAt).toISOString()).toBe(res.data.createdAt);
    expect((await videoRow(t.ctx, video.id)).comments_count).toBe(1);
  });

  it('rejects blank, missing and too long content with the field named', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    for (const content of ['   ', undefined, 'x'.repeat(2001), 42]) {
      const res = await post(video.id, content, viewer);
      expect(res.statusCode).toBe(400);
      expect(res.data.errors[0].path).toBe('content');
    }
    expect((await post(video.id, 'x'.repeat(2000), viewer)).statusCode).toBe(201);
    expect((await videoRow(t.ctx, video.id)).comments_count).toBe(1);
  });

  it('is 404 for a missing video and for one the caller may not see, but the owner may comment on their own', async () => {
    expect((await post(MISSING_ID, 'hi', viewer)).statusCode).toBe(404);
    const hidden = await seedVideo(t.ctx, owner.id, { visibility: 'private' });
    const processing = await seedVideo(t.ctx, owner.id, { status: 'processing', progress: 40 });
    expect((await post(hidden.id, 'hi', viewer)).statusCode).toBe(404);
    expect((await post(processing.id, 'hi', viewer)).statusCode).toBe(404);
    expect((await post(hidden.id, 'note to self', owner)).statusCode).toBe(201);
    expect((await videoRow(t.ctx, hidden.id)).comments_count).toBe(1);
  });

  it('is 400 for a malformed video id', async () => {
    expect((await post('bad id!', 'hi', viewer)).statusCode).toBe(400);
  });
});

describe('GET /comments/:videoId', () => {
  it('lists newest first, paged, for anyone', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    for (let i = 1; i <= 5; i++) {
      expect((await post(video.id, `comment ${i}`, i % 2 ? viewer : other)).statusCode).toBe(201);
      await new Promise((r) => setTimeout(r, 2));
    }
    const res = await t.call({ method: 'GET', url: `/api/v1/comments/${video.id}?pageNumber=1&pageSize=2` });
    expect(res.statusCode).toBe(200);
    expect(res.data.comments.map((c: { content: string }) => c.content)).toEqual(['comment 5', 'comment 4']);
    expect(res.data).toMatchObject({ totalDocs: 5, currentPage: 1, totalPages: 3, hasNextPage: true, hasPrevPage: false, nextPage: 2, prevPage: null });
    const last = await t.call({ method: 'GET', url: `/api/v1/comments/${video.id}?pageNumber=3&pageSize=2` });
    expect(last.data.comments.map((c: { content: string }) => c.content)).toEqual(['comment 1']);
    expect(last.data).toMatchObject({ hasNextPage: false, nextPage: null, prevPage: 2 });
  });

  it('marks the comments the caller likes', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const a = await post(video.id, 'first', other);
    const b = await post(video.id, 'second', other);
    expect((await t.call({ method: 'POST', url: `/api/v1/likes/toggle/comment/${a.data._id}`, as: viewer })).statusCode).toBe(200);
    const res = await t.call({ method: 'GET', url: `/api/v1/comments/${video.id}`, as: viewer });
    const byId = Object.fromEntries(res.data.comments.map((c: { _id: string }) => [c._id, c]));
    expect(byId[a.data._id]).toMatchObject({ isLiked: true, likesCount: 1 });
    expect(byId[b.data._id]).toMatchObject({ isLiked: false, likesCount: 0 });
    const anonymous = await t.call({ method: 'GET', url: `/api/v1/comments/${video.id}` });
    expect(anonymous.data.comments.every((c: { isLiked: boolean }) => !c.isLiked)).toBe(true);
  });

  it('shows an uploaded avatar through storage', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    await t.ctx.db
      .updateTable('users')
      .set({ avatar_key: `users/${other.id}/avatar-x.webp` })
      .where('id', '=', other.id)
      .execute();
    await post(video.id, 'with avatar', other);
    const res = await t.call({ method: 'GET', url: `/api/v1/comments/${video.id}` });
    expect(res.data.comments[0].owner.avatar.url).toBe(t.ctx.storage.url(`users/${other.id}/avatar-x.webp`));
    await t.ctx.db.updateTable('users').set({ avatar_key: null }).where('id', '=', other.id).execute();
  });

  it('is 404 for a missing or hidden video except to its owner, and 400 for bad paging', async () => {
    expect((await t.call({ method: 'GET', url: `/api/v1/comments/${MISSING_ID}` })).statusCode).toBe(404);
    const hidden = await seedVideo(t.ctx, owner.id, { visibility: 'private' });
    expect((await t.call({ method: 'GET', url: `/api/v1/comments/${hidden.id}`, as: viewer })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/v1/comments/${hidden.id}` })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/v1/comments/${hidden.id}`, as: owner })).statusCode).toBe(200);
    const video = await seedVideo(t.ctx, owner.id);
    for (const q of ['pageSize=51', 'pageNumber=0', 'pageNumber=abc']) {
      const res = await t.call({ method: 'GET', url: `/api/v1/comments/${video.id}?${q}` });
      expect(res.statusCode).toBe(400);
      expect(res.data.errors.length).toBeGreaterThan(0);
    }
  });
});

describe('PATCH /comments/:commentId', () => {
  it('lets only the author edit', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const c = await post(video.id, 'original', viewer);
    const url = `/api/v1/comments/${c.data._id}`;
    expect((await t.call({ method: 'PATCH', url, payload: { content: 'x' } })).statusCode).toBe(401);
    const byOther = await t.call({ method: 'PATCH', url, payload: { content: 'hacked' }, as: other });
    expect(byOther.statusCode).toBe(403);
    // Not even the video's owner may put words in someone's mouth.
    expect((await t.call({ method: 'PATCH', url, payload: { content: 'hacked' }, as: owner })).statusCode).toBe(403);
    expect((await t.call({ method: 'PATCH', url, payload: { content: '  ' }, as: viewer })).statusCode).toBe(400);
    expect((await t.call({ method: 'PATCH', url: `/api/v1/comments/${MISSING_ID}`, payload: { content: 'x' }, as: viewer })).statusCode).toBe(404);
    const ok = await t.call({ method: 'PATCH', url, payload: { content: ' edited ' }, as: viewer });
    expect(ok.statusCode).toBe(200);
    expect(ok.data).toMatchObject({ _id: c.data._id, content: 'edited', owner: { _id: viewer.id } });
    const list = await t.call({ method: 'GET', url: `/api/v1/comments/${video.id}` });
    expect(list.data.comments[0].content).toBe('edited');
  });
});

describe('DELETE /comments/:commentId', () => {
  it('lets the author delete, removing its likes and uncounting it', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const c = await post(video.id, 'to go', viewer);
    await t.call({ method: 'POST', url: `/api/v1/likes/toggle/comment/${c.data._id}/`, as: other });
    const url = `/api/v1/comments/${c.data._id}`;
    expect((await t.call({ method: 'DELETE', url })).statusCode).toBe(401);
    expect((await t.call({ method: 'DELETE', url, as: other })).statusCode).toBe(403);
    expect((await t.call({ method: 'DELETE', url: `/api/v1/comments/${MISSING_ID}`, as: viewer })).statusCode).toBe(404);
    expect((await t.call({ method: 'DELETE', url: '/api/v1/comments/!!', as: viewer })).statusCode).toBe(400);
    const res = await t.call({ method: 'DELETE', url, as: viewer });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ success: true, statusCode: 200 });
    expect((await videoRow(t.ctx, video.id)).comments_count).toBe(0);
    const likes = await t.ctx.db.selectFrom('likes').select('user_id').where('target_id', '=', c.data._id).execute();
    expect(likes).toEqual([]);
    expect((await t.call({ method: 'DELETE', url, as: viewer })).statusCode).toBe(404);
    expect((await videoRow(t.ctx, video.id)).comments_count).toBe(0);
  });

  it("lets the video's owner delete anyone's comment under their video", async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const c = await post(video.id, 'rude', viewer);
    await post(video.id, 'kind', other);
    expect((await videoRow(t.ctx, video.id)).comments_count).toBe(2);
    const res = await t.call({ method: 'DELETE', url: `/api/v1/comments/${c.data._id}`, as: owner });
    expect(res.statusCode).toBe(200);
    expect((await videoRow(t.ctx, video.id)).comments_count).toBe(1);
    const list = await t.call({ method: 'GET', url: `/api/v1/comments/${video.id}` });
    expect(list.data.comments.map((x: { content: string }) => x.content)).toEqual(['kind']);
    expect(list.data.totalDocs).toBe(1);
  });

  it('hides comments under a video that became hidden from everyone but its owner', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const c = await post(video.id, 'mine', viewer);
    await changeVideos(t.ctx, [video.id], { visibility: 'private' });
    expect((await t.call({ method: 'DELETE', url: `/api/v1/comments/${c.data._id}`, as: viewer })).statusCode).toBe(404);
    expect((await t.call({ method: 'DELETE', url: `/api/v1/comments/${c.data._id}`, as: owner })).statusCode).toBe(200);
  });
});
