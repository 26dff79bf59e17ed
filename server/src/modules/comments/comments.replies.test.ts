import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeVideos, MISSING_ID, seedVideo, videoRow } from '../../../test/support/seed.js';
import { setBanned, signUpAs } from '../../../test/support/staff.js';
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

const post = (videoId: string, payload: Record<string, unknown>, as?: SignedIn) => t.call({ method: 'POST', url: `/api/v1/comments/${videoId}`, payload, as });
const replies = (commentId: string, as?: SignedIn, query = '') => t.call({ method: 'GET', url: `/api/v1/comments/${commentId}/replies${query}`, as });
const list = (videoId: string, as?: SignedIn) => t.call({ method: 'GET', url: `/api/v1/comments/${videoId}`, as });
const pin = (commentId: string, as?: SignedIn) => t.call({ method: 'PATCH', url: `/api/v1/comments/${commentId}/pin`, as });
const heart = (commentId: string, as?: SignedIn) => t.call({ method: 'PATCH', url: `/api/v1/comments/${commentId}/heart`, as });
const contents = (res: { data: { comments: { content: string }[] } }) => res.data.comments.map((c) => c.content);

describe('replies', () => {
  it('answers a comment one level deep: a reply to a reply joins the top-level thread', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const top = await post(video.id, { content: 'top' }, viewer);
    expect(top.data).toMatchObject({ parentId: null, replyCount: 0, isPinned: false, isHearted: false });
    const first = await post(video.id, { content: 'first reply', parentId: top.data._id }, other);
    expect(first.statusCode).toBe(201);
    expect(first.data).toMatchObject({ parentId: top.data._id, content: 'first reply' });
    const nested = await post(video.id, { content: 'reply to the reply', parentId: first.data._id }, viewer);
    expect(nested.data.parentId).toBe(top.data._id);

    const thread = await replies(top.data._id);
    expect(thread.statusCode).toBe(200);
    expect(contents(thread)).toEqual(['first reply', 'reply to the reply']);
    expect(thread.data).toMatchObject({ totalDocs: 2, totalPages: 1 });
    expect((await replies(top.data._id, undefined, '?pageNumber=2&pageSize=1')).data.comments[0].content).toBe('reply to the reply');
    expect((await replies(first.data._id)).data.totalDocs).toBe(0);

    // The top-level list keeps its shape: replies are not in it, the count of them is.
    const top_level = await list(video.id);
    expect(contents(top_level)).toEqual(['top']);
    expect(top_level.data.totalDocs).toBe(1);
    expect(top_level.data.comments[0].replyCount).toBe(2);
    // The video's count is every comment people see, replies included.
    expect((await videoRow(t.ctx, video.id)).comments_count).toBe(3);
  });

  it('refuses a reply to a missing comment, or one under another video, and writes nothing', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const elsewhere = await seedVideo(t.ctx, owner.id);
    const c = await post(elsewhere.id, { content: 'over there' }, viewer);
    expect((await post(video.id, { content: 'x', parentId: MISSING_ID }, other)).statusCode).toBe(404);
    const wrong = await post(video.id, { content: 'x', parentId: c.data._id }, other);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.data.errors[0].path).toBe('parentId');
    expect((await post(video.id, { content: 'x', parentId: 'no!' }, other)).statusCode).toBe(400);
    expect((await post(video.id, { content: 'x', parentId: c.data._id })).statusCode).toBe(401);
    expect((await videoRow(t.ctx, video.id)).comments_count).toBe(0);
  });

  it('hides the thread of a video the caller may not see, and of a banned author', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const top = await post(video.id, { content: 'top' }, viewer);
    await post(video.id, { content: 'reply' }, other);
    const banned = await t.signUp();
    const byBanned = await post(video.id, { content: 'from the banned', parentId: top.data._id }, banned);
    const bannedTop = await post(video.id, { content: 'banned top' }, banned);
    expect((await list(video.id)).data.comments.find((c: { _id: string }) => c._id === top.data._id).replyCount).toBe(1);
    const admin = await signUpAs(t, 'admin');
    await setBanned(t.ctx.db, { id: admin.id, username: admin.username }, banned.id, { reason: 'spam' }, t.ctx.answers);
    expect((await replies(top.data._id)).data.totalDocs).toBe(0);
    expect((await list(video.id)).data.comments.find((c: { _id: string }) => c._id === top.data._id).replyCount).toBe(0);
    expect((await replies(bannedTop.data._id)).statusCode).toBe(404);
    expect((await replies(byBanned.data._id)).statusCode).toBe(404);
    expect((await post(video.id, { content: 'x', parentId: bannedTop.data._id }, viewer)).statusCode).toBe(404);
    expect((await videoRow(t.ctx, video.id)).comments_count).toBe(2);

    await changeVideos(t.ctx, [video.id], { visibility: 'private' });
    expect((await replies(top.data._id, viewer)).statusCode).toBe(404);
    expect((await replies(top.data._id, owner)).statusCode).toBe(200);
    expect((await replies(MISSING_ID)).statusCode).toBe(404);
    expect((await replies('x')).statusCode).toBe(400);
    expect((await replies(top.data._id, owner, '?pageSize=51')).statusCode).toBe(400);
  });

  it('deleting a top-level comment removes its replies and the likes on them', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const top = await post(video.id, { content: 'top' }, viewer);
    const reply = await post(video.id, { content: 'reply', parentId: top.data._id }, other);
    await t.call({ method: 'POST', url: `/api/v1/likes/toggle/comment/${reply.data._id}`, as: owner });
    expect((await list(video.id, owner)).statusCode).toBe(200);
    expect((await t.call({ method: 'DELETE', url: `/api/v1/comments/${top.data._id}`, as: viewer })).statusCode).toBe(200);
    expect(await t.ctx.db.selectFrom('comments').select('id').where('video_id', '=', video.id).execute()).toEqual([]);
    expect(await t.ctx.db.selectFrom('likes').select('user_id').where('target_id', '=', reply.data._id).execute()).toEqual([]);
    expect((await videoRow(t.ctx, video.id)).comments_count).toBe(0);
  });
});

describe('PATCH /comments/:commentId/pin', () => {
  it("lets only the video's owner pin one top-level comment, shown first", async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const a = await post(video.id, { content: 'a' }, viewer);
    const b = await post(video.id, { content: 'b' }, other);
    await post(video.id, { content: 'c' }, other);
    expect((await pin(a.data._id)).statusCode).toBe(401);
    expect((await pin(a.data._id, viewer)).statusCode).toBe(403);
    expect((await pin(MISSING_ID, owner)).statusCode).toBe(404);
    expect((await pin('x', owner)).statusCode).toBe(400);

    const pinned = await pin(a.data._id, owner);
    expect(pinned.statusCode).toBe(200);
    expect(pinned.data).toMatchObject({ _id: a.data._id, isPinned: true });
    expect(contents(await list(video.id))).toEqual(['a', 'c', 'b']);
    // Pinning another unpins the first.
    expect((await pin(b.data._id, owner)).data.isPinned).toBe(true);
    const now = await list(video.id);
    expect(contents(now)).toEqual(['b', 'c', 'a']);
    expect(now.data.comments.filter((c: { isPinned: boolean }) => c.isPinned).length).toBe(1);
    // Pinning the pinned one again unpins it.
    expect((await pin(b.data._id, owner)).data.isPinned).toBe(false);
    expect(contents(await list(video.id))).toEqual(['c', 'b', 'a']);

    const reply = await post(video.id, { content: 'r', parentId: a.data._id }, other);
    expect((await pin(reply.data._id, owner)).statusCode).toBe(400);
  });

  it('pages through the pinned comment first, then the rest newest first, without a gap or a repeat, and leaves out a banned author', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const spammer = await t.signUp();
    const ids: string[] = [];
    for (let i = 1; i <= 7; i++) {
      const as = i === 4 ? spammer : i % 2 ? viewer : other;
      ids.push((await post(video.id, { content: `c${i}` }, as)).data._id);
      await new Promise((r) => setTimeout(r, 2));
    }
    expect((await pin(ids[2], owner)).statusCode).toBe(200);
    const page = (n: number) => t.call({ method: 'GET', url: `/api/v1/comments/${video.id}?pageNumber=${n}&pageSize=3` });
    const all = async () => {
      const pages = [];
      for (let n = 1; n <= 3; n++) pages.push(contents(await page(n)));
      return pages;
    };
    expect(await all()).toEqual([['c3', 'c7', 'c6'], ['c5', 'c4', 'c2'], ['c1']]);

    const admin = { id: owner.id, username: owner.username };
    await setBanned(t.ctx.db, admin, spammer.id, { reason: 'spam' }, t.ctx.answers);
    expect(await all()).toEqual([['c3', 'c7', 'c6'], ['c5', 'c2', 'c1'], []]);
    expect((await page(1)).data).toMatchObject({ totalDocs: 6, totalPages: 2 });
    await setBanned(t.ctx.db, admin, spammer.id, null, t.ctx.answers);
    expect(await all()).toEqual([['c3', 'c7', 'c6'], ['c5', 'c4', 'c2'], ['c1']]);
    // Unpinned, the pinned comment takes its place by date again.
    expect((await pin(ids[2], owner)).statusCode).toBe(200);
    expect(await all()).toEqual([['c7', 'c6', 'c5'], ['c4', 'c3', 'c2'], ['c1']]);
  });

  it('keeps one pinned comment per video when pins race', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await post(video.id, { content: `c${i}` }, viewer)).data._id);
    const results = await Promise.all(ids.map((id) => pin(id, owner)));
    for (const r of results) expect([200, 409]).toContain(r.statusCode);
    const rows = await t.ctx.db.selectFrom('comments').select('id').where('video_id', '=', video.id).where('pinned_at', 'is not', null).execute();
    expect(rows.length).toBe(1);
  });
});

describe('PATCH /comments/:commentId/heart', () => {
  it("lets only the video's owner heart a comment or a reply, toggling", async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const a = await post(video.id, { content: 'a' }, viewer);
    const r = await post(video.id, { content: 'r', parentId: a.data._id }, other);
    expect((await heart(a.data._id)).statusCode).toBe(401);
    expect((await heart(a.data._id, viewer)).statusCode).toBe(403);
    expect((await heart(a.data._id, other)).statusCode).toBe(403);
    expect((await heart(MISSING_ID, owner)).statusCode).toBe(404);
    const on = await heart(a.data._id, owner);
    expect(on.statusCode).toBe(200);
    expect(on.data).toMatchObject({ _id: a.data._id, isHearted: true });
    expect((await heart(r.data._id, owner)).data.isHearted).toBe(true);
    expect((await list(video.id)).data.comments[0].isHearted).toBe(true);
    expect((await replies(a.data._id)).data.comments[0].isHearted).toBe(true);
    expect((await heart(a.data._id, owner)).data.isHearted).toBe(false);
    await changeVideos(t.ctx, [video.id], { visibility: 'private' });
    expect((await heart(a.data._id, owner)).statusCode).toBe(200);
    expect((await heart(r.data._id, viewer)).statusCode).toBe(404);
  });
});
