import { ChatBan, ChatHistory, ChatMessage, LiveDetail, VideoDetail } from '@reelhouse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_ID, seedVideo } from '../../../test/support/seed.js';
import { staffCallers } from '../../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

const API = '/api/v1';

describe('live chat routes', () => {
  let t: TestApp;
  let owner: SignedIn;
  let other: SignedIn;
  let staff: Awaited<ReturnType<typeof staffCallers>>;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.signUp();
    other = await t.signUp();
    staff = await staffCallers(t);
  });
  afterAll(() => t.close());

  const makeLive = async (payload: Record<string, unknown> = {}, as = owner) => {
    const res = await t.call({ method: 'POST', url: `${API}/live`, payload: { title: 'Chat show', description: 'Talk to us', ...payload }, as });
    expect(res.statusCode, res.body).toBe(201);
    return res.data.video._id as string;
  };
  const post = (videoId: string, as: SignedIn | undefined, content: unknown = 'Hello') =>
    t.call({ method: 'POST', url: `${API}/live/${videoId}/chat`, payload: { content }, as });
  const posted = async (videoId: string, as: SignedIn, content = 'Hello') => {
    const res = await post(videoId, as, content);
    expect(res.statusCode, res.body).toBe(201);
    return ChatMessage.parse(res.data);
  };
  const history = async (videoId: string, as?: SignedIn) => {
    const res = await t.call({ method: 'GET', url: `${API}/live/${videoId}/chat`, as });
    expect(res.statusCode, res.body).toBe(200);
    return ChatHistory.parse(res.data);
  };
  const remove = (videoId: string, messageId: string, as?: SignedIn) => t.call({ method: 'DELETE', url: `${API}/live/${videoId}/chat/${messageId}`, as });
  const ban = (videoId: string, as: SignedIn | undefined, payload: Record<string, unknown>) =>
    t.call({ method: 'POST', url: `${API}/live/${videoId}/chat/bans`, payload, as });
  const setSlowMode = (videoId: string, seconds: unknown, as = owner) =>
    t.call({ method: 'PATCH', url: `${API}/live/${videoId}`, payload: { slowModeSeconds: seconds }, as });
  const chatRows = async () => ({
    messages: (await t.ctx.db.selectFrom('live_chat_messages').select('id').execute()).length,
    bans: (await t.ctx.db.selectFrom('live_chat_bans').select('user_id').execute()).length,
  });

  it('anyone who may see the live reads its chat, oldest first with its rules; writing needs an account', async () => {
    const videoId = await makeLive();
    const first = await posted(videoId, owner, 'Welcome, everyone');
    expect(first).toMatchObject({ videoId, content: 'Welcome, everyone', author: { _id: owner.id, username: owner.username } });
    expect(first.author.avatar.url).toMatch(/default-avatar\.svg$/);
    expect(Date.parse(first.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    const second = await posted(videoId, other, '  Hi from the sofa  ');
    expect(second.content).toBe('Hi from the sofa');

    const signedOut = await history(videoId);
    expect(signedOut.messages.map((m) => m._id)).toEqual([first._id, second._id]);
    expect(signedOut.settings).toEqual({ slowModeSeconds: 0, open: true });
    expect((await history(videoId, staff.user)).messages).toHaveLength(2);

    const refused = await post(videoId, undefined);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ success: false, statusCode: 401 });
    for (const who of [staff.user, staff.moderator, staff.admin]) await posted(videoId, who, `From ${who.username}`);
    expect((await history(videoId)).messages).toHaveLength(5);
  });

  it('keeps the last 100 messages in the history', async () => {
    const videoId = await makeLive();
    const now = Date.now();
    await t.ctx.db
      .insertInto('live_chat_messages')
      .values(
        Array.from({ length: 105 }, (_, i) => ({ id: `seeded-${videoId}-${i}`, video_id: videoId, user_id: other.id, content: `n${i}`, created_at: now + i })),
      )
      .execute();
    const { messages } = await history(videoId);
    expect(messages).toHaveLength(100);
    expect(messages[0]!.content).toBe('n5');
    expect(messages.at(-1)!.content).toBe('n104');
  });

  it('refuses bad input with the envelope and writes nothing', async () => {
    const videoId = await makeLive();
    const message = await posted(videoId, other);
    const before = await chatRows();
    const cases: [Promise<Awaited<ReturnType<typeof post>>>, RegExp][] = [
      [post(videoId, other, '   '), /content must not be blank/],
      [post(videoId, other, 'x'.repeat(201)), /content must be at most 200 characters/],
      [post(videoId, other, 42), /content/],
      [t.call({ method: 'POST', url: `${API}/live/${videoId}/chat`, payload: {}, as: other }), /content is required/],
      [post('not!an!id', other), /Invalid id/],
      [remove(videoId, 'not!an!id', owner), /Invalid id/],
      [remove('not!an!id', message._id, owner), /Invalid id/],
      [ban(videoId, owner, { userId: other.id, seconds: 59 }), /seconds must be at least 60/],
      [ban(videoId, owner, { userId: other.id, seconds: 604_801 }), /seconds must be at most 604800/],
      [ban(videoId, owner, { userId: other.id, seconds: 90.5 }), /seconds must be a whole number/],
      [ban(videoId, owner, { userId: other.id, seconds: 'long' }), /seconds must be a number/],
      [ban(videoId, owner, { userId: 'not!an!id', seconds: 600 }), /Invalid id/],
      [ban(videoId, owner, { seconds: 600 }), /userId/],
      [setSlowMode(videoId, -1), /slowModeSeconds must be at least 0/],
      [setSlowMode(videoId, 3601), /slowModeSeconds must be at most 3600/],
      [setSlowMode(videoId, 2.5), /slowModeSeconds must be a whole number/],
      [setSlowMode(videoId, 'slow'), /slowModeSeconds must be a number/],
    ];
    for (const [call, text] of cases) {
      const res = await call;
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, success: false });
      expect(res.body).toMatch(text);
    }
    expect(await post(videoId, other, 'x'.repeat(200))).toMatchObject({ statusCode: 201 });
    expect(await chatRows()).toEqual({ ...before, messages: before.messages + 1 });
    expect((await history(videoId)).settings.slowModeSeconds).toBe(0);
  });

  it('a missing video, a video that is no live and a private live of someone else have no chat', async () => {
    for (const [method, path] of [
      ['GET', '/chat'],
      ['GET', '/chat/stream'],
      ['POST', '/chat'],
    ] as const) {
      const res = await t.call({ method, url: `${API}/live/${MISSING_ID}${path}`, payload: method === 'POST' ? { content: 'x' } : undefined, as: other });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json()).toMatchObject({ success: false, message: 'Video not found' });
    }
    const vod = await seedVideo(t.ctx, owner.id);
    const noLive = await t.call({ method: 'GET', url: `${API}/live/${vod.id}/chat` });
    expect(noLive.statusCode).toBe(404);
    expect(noLive.json()).toMatchObject({ success: false, message: 'This video has no live chat' });
    expect((await post(vod.id, other)).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `${API}/live/${vod.id}/chat/stream` })).statusCode).toBe(404);

    const privateLive = await makeLive({ visibility: 'private' });
    const mine = await posted(privateLive, owner, 'Only me here');
    expect((await history(privateLive, owner)).messages).toHaveLength(1);
    for (const who of [undefined, other, staff.moderator]) {
      expect((await t.call({ method: 'GET', url: `${API}/live/${privateLive}/chat`, as: who })).statusCode).toBe(404);
      expect((await t.call({ method: 'GET', url: `${API}/live/${privateLive}/chat/stream`, as: who })).statusCode).toBe(404);
    }
    expect((await post(privateLive, other)).statusCode).toBe(404);
    expect((await remove(privateLive, mine._id, other)).statusCode).toBe(404);
    expect((await ban(privateLive, other, { userId: staff.user.id, seconds: 600 })).statusCode).toBe(404);
    // Admins see everything, as on the video's page.
    expect((await history(privateLive, staff.admin)).messages).toHaveLength(1);
    // Unlisted: anyone with the link.
    const unlisted = await makeLive({ visibility: 'unlisted' });
    await posted(unlisted, other);
    expect((await history(unlisted)).messages).toHaveLength(1);
  });

  it('slow mode: a viewer waits between messages, the owner, moderators and admins never; the owner sets it', async () => {
    const videoId = await makeLive();
    const set = await setSlowMode(videoId, 30);
    expect(set.statusCode, set.body).toBe(200);
    expect(VideoDetail.parse(set.data)).toMatchObject({ _id: videoId, title: 'Chat show' });
    const detail = LiveDetail.parse((await t.call({ method: 'GET', url: `${API}/live/${videoId}`, as: owner })).data);
    expect(detail.chat).toEqual({ slowModeSeconds: 30, open: true });
    expect((await history(videoId)).settings.slowModeSeconds).toBe(30);

    await posted(videoId, other, 'First');
    const tooSoon = await post(videoId, other, 'Second');
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json()).toMatchObject({ statusCode: 429, success: false });
    expect(tooSoon.message).toMatch(/^Slow mode: wait 30 seconds between messages \((29|30) s left\)$/);
    expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThanOrEqual(29);
    for (const who of [owner, staff.moderator, staff.admin]) {
      await posted(videoId, who, 'One');
      await posted(videoId, who, 'Two');
    }

    // Only the owner changes it; its text and visibility go with it in one call.
    for (const who of [other, staff.moderator, staff.admin]) expect((await setSlowMode(videoId, 0, who)).statusCode).toBe(403);
    expect((await t.call({ method: 'PATCH', url: `${API}/live/${videoId}`, payload: { slowModeSeconds: 0 } })).statusCode).toBe(401);
    const both = await t.call({ method: 'PATCH', url: `${API}/live/${videoId}`, payload: { title: 'Quick chat', slowModeSeconds: 1 }, as: owner });
    expect(both.statusCode).toBe(200);
    expect(both.data.title).toBe('Quick chat');
    expect((await history(videoId)).settings.slowModeSeconds).toBe(1);
    // A refused title leaves the slow mode as it was.
    expect((await t.call({ method: 'PATCH', url: `${API}/live/${videoId}`, payload: { title: '', slowModeSeconds: 9 }, as: owner })).statusCode).toBe(400);
    expect((await history(videoId)).settings.slowModeSeconds).toBe(1);

    await new Promise((r) => setTimeout(r, 1100));
    await posted(videoId, other, 'After a second');
    const again = await post(videoId, other, 'Right away');
    expect(again.statusCode).toBe(429);
    expect(again.message).toBe('Slow mode: wait 1 second between messages (1 s left)');
    await new Promise((r) => setTimeout(r, 1100));
    await posted(videoId, other, 'After waiting');
    expect((await setSlowMode(videoId, 0)).statusCode).toBe(200);
    await posted(videoId, other, 'Free again');
    await posted(videoId, other, 'And again');
  });

  it("a live without a slow mode of its own takes the site's default", async () => {
    const site = await createTestApp({ env: { LIVE_CHAT_SLOW_MODE_SECONDS: '20' } });
    try {
      const [host, guest] = [await site.signUp(), await site.signUp()];
      const made = await site.call({ method: 'POST', url: `${API}/live`, payload: { title: 'x', description: 'y' }, as: host });
      const videoId = made.data.video._id as string;
      expect((await site.call({ method: 'GET', url: `${API}/live/${videoId}/chat` })).data.settings.slowModeSeconds).toBe(20);
      expect((await site.call({ method: 'GET', url: `${API}/live/${videoId}`, as: host })).data.chat.slowModeSeconds).toBe(20);
      const say = () => site.call({ method: 'POST', url: `${API}/live/${videoId}/chat`, payload: { content: 'hey' }, as: guest });
      expect((await say()).statusCode).toBe(201);
      expect((await say()).statusCode).toBe(429);
      // Its own setting, even 0, wins over the default.
      await site.call({ method: 'PATCH', url: `${API}/live/${videoId}`, payload: { slowModeSeconds: 0 }, as: host });
      expect((await say()).statusCode).toBe(201);
    } finally {
      await site.close();
    }
  });

  it('bans: the owner, moderators and admins keep a viewer out for a while, per live; a new ban replaces the old', async () => {
    const videoId = await makeLive();
    const viewer = await t.signUp();
    const res = await ban(videoId, owner, { userId: viewer.id, seconds: 600 });
    expect(res.statusCode, res.body).toBe(201);
    const made = ChatBan.parse(res.data);
    expect(made).toMatchObject({ videoId, userId: viewer.id });
    expect(Math.abs(Date.parse(made.until) - (Date.now() + 600_000))).toBeLessThan(10_000);

    const refused = await post(videoId, viewer);
    expect(refused.statusCode).toBe(403);
    expect(refused.message).toBe(`You are banned from this chat until ${made.until}`);
    // Still reads the chat, and may write in another live.
    expect((await t.call({ method: 'GET', url: `${API}/live/${videoId}/chat`, as: viewer })).statusCode).toBe(200);
    await posted(await makeLive(), viewer);

    // A moderator's ban replaces the owner's: one row, the new end.
    const longer = ChatBan.parse((await ban(videoId, staff.moderator, { userId: viewer.id, seconds: 7200 })).data);
    expect(Date.parse(longer.until)).toBeGreaterThan(Date.parse(made.until));
    const rows = await t.ctx.db.selectFrom('live_chat_bans').selectAll().where('video_id', '=', videoId).execute();
    expect(rows).toEqual([expect.objectContaining({ user_id: viewer.id, banned_by: staff.moderator.id, until: expect.anything() })]);
    expect((await ban(videoId, staff.admin, { userId: viewer.id, seconds: 60 })).statusCode).toBe(201);

    // Who may not ban, and who may not be banned.
    expect((await ban(videoId, undefined, { userId: viewer.id, seconds: 600 })).statusCode).toBe(401);
    for (const who of [other, staff.user]) {
      const r = await ban(videoId, who, { userId: viewer.id, seconds: 600 });
      expect(r.statusCode).toBe(403);
      expect(r.message).toBe('Only the channel owner or a moderator can ban from this chat');
    }
    const cases: [SignedIn, string, string][] = [
      [owner, owner.id, 'You cannot ban yourself'],
      [staff.moderator, owner.id, 'The channel owner cannot be banned from their own chat'],
      [owner, staff.moderator.id, 'Moderators and admins cannot be banned from a chat'],
      [staff.moderator, staff.admin.id, 'Moderators and admins cannot be banned from a chat'],
    ];
    for (const [who, target, message] of cases) {
      const r = await ban(videoId, who, { userId: target, seconds: 600 });
      expect(r.statusCode).toBe(403);
      expect(r.message).toBe(message);
    }
    const unknown = await ban(videoId, owner, { userId: MISSING_ID, seconds: 600 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.message).toBe('User not found');
    expect((await ban(MISSING_ID, owner, { userId: viewer.id, seconds: 600 })).statusCode).toBe(404);

    // Once the ban's time is over (moved into the past, as time passing would), the viewer writes again.
    await t.ctx.db
      .updateTable('live_chat_bans')
      .set({ until: Date.now() - 1000 })
      .where('video_id', '=', videoId)
      .execute();
    await posted(videoId, viewer, 'I am back');
  });

  it('deleting: the author, the channel owner, moderators and admins; nobody else', async () => {
    const videoId = await makeLive();
    const say = () => posted(videoId, other, 'Something to delete');
    const mine = await say();
    expect((await remove(videoId, mine._id)).statusCode).toBe(401);
    for (const who of [staff.user, await t.signUp()]) {
      const r = await remove(videoId, mine._id, who);
      expect(r.statusCode).toBe(403);
      expect(r.message).toBe('Only its author, the channel owner or a moderator can delete this message');
    }
    const res = await remove(videoId, mine._id, other);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: 'Message deleted' });
    expect((await history(videoId)).messages).toEqual([]);
    expect((await remove(videoId, mine._id, other)).statusCode).toBe(404);

    for (const who of [owner, staff.moderator, staff.admin]) expect((await remove(videoId, (await say())._id, who)).statusCode).toBe(200);
    expect((await history(videoId)).messages).toEqual([]);

    // A message is found only under its own live.
    const elsewhere = await posted(await makeLive(), other);
    expect((await remove(videoId, elsewhere._id, other)).statusCode).toBe(404);
    expect((await remove(videoId, MISSING_ID, owner)).statusCode).toBe(404);
  });

  it('an ended live keeps its chat readable and read-only; messages can still be deleted', async () => {
    const videoId = await makeLive();
    const kept = await posted(videoId, other, 'Great show');
    const gone = await posted(videoId, other, 'Delete me later');
    expect((await t.call({ method: 'POST', url: `${API}/live/${videoId}/end`, as: owner })).statusCode).toBe(200);

    for (const who of [other, owner, staff.admin]) {
      const res = await post(videoId, who, 'Too late');
      expect(res.statusCode).toBe(409);
      expect(res.message).toBe('The live has ended; its chat is read-only');
    }
    const after = await history(videoId);
    expect(after.messages.map((m) => m._id)).toEqual([kept._id, gone._id]);
    expect(after.settings.open).toBe(false);
    expect((await t.call({ method: 'GET', url: `${API}/live/${videoId}`, as: owner })).data.chat.open).toBe(false);
    expect((await remove(videoId, gone._id, staff.moderator)).statusCode).toBe(200);
    expect((await history(videoId)).messages.map((m) => m._id)).toEqual([kept._id]);
  });
});
