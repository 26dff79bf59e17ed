import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeVideos, MISSING_ID, seedVideo } from '../../../test/support/seed.js';
import { openSse } from '../../../test/support/sse.js';
import { setBanned, signUpAs } from '../../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

const SITE = 'https://app.example';
let t: TestApp;
let base = '';
let owner: SignedIn;
let fan: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  t = await createTestApp({ env: { ALLOWED_ORIGINS: SITE } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  [owner, fan, other] = await Promise.all([t.signUp(), t.signUp(), t.signUp()]);
  await t.call({ method: 'POST', url: `/api/v1/subscriptions/channel/${owner.id}`, as: fan });
});
afterAll(() => t?.close());

const list = (as?: SignedIn, query = '') => t.call({ method: 'GET', url: `/api/v1/notifications${query}`, as });
const unread = async (as: SignedIn) => (await t.call({ method: 'GET', url: '/api/v1/notifications/unread-count', as })).data.count as number;
const markRead = (as: SignedIn | undefined, payload: unknown) => t.call({ method: 'PATCH', url: '/api/v1/notifications/read', payload: payload as object, as });
const comment = (videoId: string, as: SignedIn, content: string, parentId?: string) =>
  t.call({ method: 'POST', url: `/api/v1/comments/${videoId}`, payload: { content, ...(parentId ? { parentId } : {}) }, as });
const kinds = async (as: SignedIn) => (await list(as, '?pageSize=50')).data.notifications.map((n: { kind: string }) => n.kind);
const cookieHeader = (u: SignedIn) =>
  Object.entries(u.cookies)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

describe('notifications', () => {
  it('need sign-in', async () => {
    expect((await list()).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/api/v1/notifications/unread-count' })).statusCode).toBe(401);
    expect((await markRead(undefined, {})).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/api/v1/notifications/stream' })).statusCode).toBe(401);
  });

  it('tell followers once when a video is published, never the channel itself', async () => {
    const video = await seedVideo(t.ctx, owner.id, { visibility: 'private' });
    expect(await kinds(fan)).toEqual([]);
    expect((await t.call({ method: 'PATCH', url: `/api/v1/videos/publish/${video.id}`, as: owner })).statusCode).toBe(200);
    const res = await list(fan);
    expect(res.statusCode).toBe(200);
    expect(res.data.notifications).toHaveLength(1);
    expect(res.data.notifications[0]).toMatchObject({
      kind: 'new_video',
      read: false,
      video: { _id: video.id, title: video.title },
      actor: { _id: owner.id, username: owner.username },
      comment: null,
      reason: null,
    });
    // Unpublishing and publishing again is not a new event.
    await t.call({ method: 'PATCH', url: `/api/v1/videos/publish/${video.id}`, as: owner });
    expect(await kinds(fan)).toEqual([]);
    await t.call({ method: 'PATCH', url: `/api/v1/videos/publish/${video.id}`, as: owner });
    expect(await kinds(fan)).toEqual(['new_video']);
    expect(await kinds(owner)).toEqual([]);
    expect(await kinds(other)).toEqual([]);
  });

  it('tell followers of a video taken down before it was ever listed once a moderator restores it', async () => {
    const video = await seedVideo(t.ctx, owner.id, { hidden_at: Date.now(), hidden_reason: 'looks like spam' });
    const before = await unread(fan);
    const report = await t.call({ method: 'POST', url: `/api/v1/videos/${video.id}/appeal`, payload: { text: 'It is my own footage, not spam.' }, as: owner });
    expect(report.statusCode).toBe(201);
    expect(await unread(fan)).toBe(before);
    const admin = await signUpAs(t, 'admin');
    const restored = await t.call({
      method: 'PATCH',
      url: `/api/v1/admin/reports/${report.data._id}`,
      payload: { action: 'restore', note: 'Not spam' },
      as: admin,
    });
    expect(restored.statusCode).toBe(200);
    expect(await unread(fan)).toBe(before + 1);
    expect((await list(fan)).data.notifications[0]).toMatchObject({ kind: 'new_video', video: { _id: video.id } });
  });

  it('tell the video owner of a comment and the author of a reply, once, and nobody of their own words', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const before = { owner: await unread(owner), other: await unread(other) };
    const top = await comment(video.id, other, 'nice');
    expect(await unread(owner)).toBe(before.owner + 1);
    const [onVideo] = (await list(owner)).data.notifications;
    expect(onVideo).toMatchObject({
      kind: 'video_comment',
      actor: { _id: other.id },
      comment: { _id: top.data._id, content: 'nice', parentId: null },
      video: { _id: video.id },
    });

    // The owner answers: the commenter hears of the reply; the owner is not told of their own reply.
    const reply = await comment(video.id, owner, 'thanks', top.data._id);
    expect(await unread(owner)).toBe(before.owner + 1);
    expect(await unread(other)).toBe(before.other + 1);
    expect((await list(other)).data.notifications[0]).toMatchObject({
      kind: 'comment_reply',
      actor: { _id: owner.id },
      comment: { _id: reply.data._id, parentId: top.data._id },
    });

    // A third person answers the owner's reply: the owner hears once (as the one replied to).
    await comment(video.id, fan, 'agreed', reply.data._id);
    const ownerKinds = await kinds(owner);
    expect(ownerKinds.slice(0, 2)).toEqual(['comment_reply', 'video_comment']);
    expect(await unread(owner)).toBe(before.owner + 2);

    // Replying to oneself and commenting on one's own video tell nobody.
    const fanBefore = await unread(fan);
    const self = await comment(video.id, owner, 'my own note');
    await comment(video.id, owner, 'and more', self.data._id);
    expect(await unread(owner)).toBe(before.owner + 2);
    expect(await unread(fan)).toBe(fanBefore);

    // The same event told twice is stored once.
    await t.services.notifications.commented({ commentId: top.data._id, videoId: video.id, authorId: other.id, repliedToAuthorId: null });
    expect(await unread(owner)).toBe(before.owner + 2);
  });

  it('tell nothing about, and stop showing, what the recipient may not open', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const top = await comment(video.id, other, 'hello');
    const otherBefore = await unread(other);
    await changeVideos(t.ctx, [video.id], { visibility: 'private' });
    // The owner answers under their now private video: the commenter cannot open it, so hears nothing.
    await comment(video.id, owner, 'private answer', top.data._id);
    expect(await unread(other)).toBe(otherBefore);

    const shown = await seedVideo(t.ctx, owner.id, { visibility: 'private' });
    await t.call({ method: 'PATCH', url: `/api/v1/videos/publish/${shown.id}`, as: owner });
    const fanBefore = await unread(fan);
    await changeVideos(t.ctx, [shown.id], { hidden_at: Date.now(), hidden_reason: 'spam' });
    expect(await unread(fan)).toBe(fanBefore - 1);
    expect((await list(fan, '?pageSize=50')).data.notifications.map((n: { video: { _id: string } }) => n.video._id)).not.toContain(shown.id);

    // A banned commenter's comment notice goes with their comments.
    const troll = await t.signUp();
    const own = await seedVideo(t.ctx, other.id);
    await comment(own.id, troll, 'spam spam');
    const withTroll = await unread(other);
    const admin = await signUpAs(t, 'admin');
    await setBanned(t.ctx.db, { id: admin.id, username: admin.username }, troll.id, { reason: 'spam' }, t.ctx.answers);
    expect(await unread(other)).toBe(withTroll - 1);
  });

  it('tell the uploader when processing ends, with the reason when it failed', async () => {
    const ready = await seedVideo(t.ctx, other.id);
    const failed = await seedVideo(t.ctx, other.id, { status: 'failed', failure_reason: 'The file has no video stream' });
    await t.services.notifications.videoReady(ready.id);
    await t.services.notifications.videoFailed(failed.id);
    await t.services.notifications.videoFailed(failed.id);
    const all = (await list(other, '?pageSize=50')).data.notifications;
    expect(all.find((n: { kind: string }) => n.kind === 'upload_ready')).toMatchObject({ video: { _id: ready.id }, actor: null });
    expect(all.filter((n: { kind: string }) => n.kind === 'upload_failed')).toEqual([
      expect.objectContaining({ video: expect.objectContaining({ _id: failed.id }), reason: 'The file has no video stream' }),
    ]);
  });

  it("page, and mark read one or all, only the caller's own", async () => {
    const u = await t.signUp();
    const video = await seedVideo(t.ctx, u.id);
    for (let i = 0; i < 3; i++) await comment(video.id, other, `c${i}`);
    const page1 = await list(u, '?pageNumber=1&pageSize=2');
    expect(page1.data).toMatchObject({ totalDocs: 3, totalPages: 2, hasNextPage: true });
    expect(page1.data.notifications.map((n: { comment: { content: string } }) => n.comment.content)).toEqual(['c2', 'c1']);
    const first = page1.data.notifications[0]._id;

    // Someone else's id changes nothing.
    expect((await markRead(other, { ids: [first] })).data).toMatchObject({ marked: 0 });
    const one = await markRead(u, { ids: [first, MISSING_ID] });
    expect(one.statusCode).toBe(200);
    expect(one.data).toEqual({ marked: 1, unreadCount: 2 });
    expect((await list(u)).data.notifications[0]).toMatchObject({ _id: first, read: true });
    expect((await markRead(u, {})).data).toEqual({ marked: 2, unreadCount: 0 });
    expect(await unread(u)).toBe(0);

    for (const bad of [{ ids: 'x' }, { ids: ['no good'] }, { ids: Array.from({ length: 101 }, () => MISSING_ID) }]) {
      const res = await markRead(u, bad);
      expect(res.statusCode).toBe(400);
      expect(res.data.errors[0].path).toMatch(/^ids/);
    }
    expect((await list(u, '?pageSize=51')).statusCode).toBe(400);
  });
});

describe('GET /notifications/stream', () => {
  it("delivers live over the session cookie within a second, with the site's CORS headers, and closes cleanly", async () => {
    const u = await t.signUp();
    const video = await seedVideo(t.ctx, u.id);
    const stream = await openSse(`${base}/api/v1/notifications/stream`, { cookie: cookieHeader(u), origin: SITE });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    expect(stream.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(stream.headers.get('access-control-allow-credentials')).toBe('true');
    expect(stream.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await stream.next('ready')).data).toEqual({ unreadCount: 0 });

    const started = Date.now();
    const posted = await comment(video.id, other, 'live!');
    const event = await stream.next('notification', 1000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(event.data).toMatchObject({ unreadCount: 1, notification: { kind: 'video_comment', comment: { _id: posted.data._id, content: 'live!' } } });

    // Another user's events never reach this stream.
    const elsewhere = await seedVideo(t.ctx, other.id);
    await comment(elsewhere.id, fan, 'not for u');
    await expect(stream.next('notification', 300)).rejects.toThrow();

    stream.close();
    await stream.ended;
    // The listener is gone once the client is: nothing keeps a departed client's stream alive.
    await new Promise((r) => setTimeout(r, 50));
    await comment(video.id, other, 'after close');
    expect(await unread(u)).toBe(2);
  });

  it('refuses an expired or missing session and ends open streams when the server closes', async () => {
    const res = await fetch(`${base}/api/v1/notifications/stream`, { headers: { cookie: 'accessToken=nonsense' } });
    expect(res.status).toBe(401);
    expect((await res.json()).success).toBe(false);

    const app2 = await createTestApp();
    await app2.app.listen({ port: 0, host: '127.0.0.1' });
    const u = await app2.signUp();
    const stream = await openSse(`http://127.0.0.1:${(app2.app.server.address() as AddressInfo).port}/api/v1/notifications/stream`, {
      authorization: `Bearer ${u.accessToken}`,
    });
    await stream.next('ready');
    const closing = app2.close();
    await stream.ended;
    await closing;
  });
});
