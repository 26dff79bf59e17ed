import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_ID, seedVideo, videoRow } from '../../../test/support/seed.js';
import { setBanned, staffCallers } from '../../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

const API = '/api/v1';
let t: TestApp;
let staff: Awaited<ReturnType<typeof staffCallers>>;
beforeAll(async () => {
  t = await createTestApp();
  staff = await staffCallers(t);
});
afterAll(async () => {
  await t?.close();
});

const report = (as: SignedIn | undefined, payload: object) => t.call({ method: 'POST', url: `${API}/reports`, as, payload });
const queue = (as: SignedIn | undefined, state = 'open') => t.call({ method: 'GET', url: `${API}/admin/reports?state=${state}`, as });
const act = (as: SignedIn | undefined, id: string, payload: object) => t.call({ method: 'PATCH', url: `${API}/admin/reports/${id}`, as, payload });
const appeal = (as: SignedIn | undefined, id: string, text = 'It is my own footage') =>
  t.call({ method: 'POST', url: `${API}/videos/${id}/appeal`, as, payload: { text } });
const getVideo = (id: string, as?: SignedIn) => t.call({ method: 'GET', url: `${API}/videos/${id}`, as });
const groupOf = async (targetId: string, state = 'open') =>
  (await queue(staff.moderator, state)).data.groups.find((g: { targetId: string }) => g.targetId === targetId);
const auditOf = async (targetId: string) =>
  (await t.ctx.db.selectFrom('audit_log').selectAll().where('target_id', '=', targetId).orderBy('created_at').orderBy('id').execute()).map(
    (a) => `${a.action} by ${a.actor_username}${a.reason ? `: ${a.reason}` : ''}`,
  );

describe('POST /reports', () => {
  it('needs a signed-in user', async () => {
    const owner = await t.signUp();
    const video = await seedVideo(t.ctx, owner.id);
    const res = await report(undefined, { targetType: 'video', targetId: video.id, reason: 'spam' });
    expect(res.statusCode).toBe(401);
  });

  it('refuses bad input with clear messages', async () => {
    const who = await t.signUp();
    const cases: [object, string][] = [
      [{ targetType: 'video', targetId: MISSING_ID, reason: 'boring' }, 'reason must be one of spam, harassment, sexual, violence, copyright, other'],
      [{ targetType: 'playlist', targetId: MISSING_ID, reason: 'spam' }, 'targetType must be one of video, comment, channel'],
      [{ targetType: 'video', targetId: '../etc', reason: 'spam' }, 'Invalid id'],
      [{ targetType: 'video', targetId: MISSING_ID, reason: 'spam', note: 'x'.repeat(1001) }, 'note must be at most 1000 characters'],
    ];
    for (const [body, message] of cases) {
      const res = await report(who, body);
      expect(res.statusCode).toBe(400);
      expect(res.message).toContain(message);
    }
    expect(await t.ctx.db.selectFrom('reports').selectAll().where('reporter_id', '=', who.id).execute()).toEqual([]);
  });

  it('answers 404 for what does not exist or the reporter cannot see, and 400 for their own item', async () => {
    const who = await t.signUp();
    const owner = await t.signUp();
    const hiddenFromWho = await seedVideo(t.ctx, owner.id, { visibility: 'private' });
    expect((await report(who, { targetType: 'video', targetId: MISSING_ID, reason: 'spam' })).message).toBe('Video not found');
    expect((await report(who, { targetType: 'video', targetId: hiddenFromWho.id, reason: 'spam' })).statusCode).toBe(404);
    expect((await report(who, { targetType: 'comment', targetId: MISSING_ID, reason: 'spam' })).message).toBe('Comment not found');
    expect((await report(who, { targetType: 'channel', targetId: MISSING_ID, reason: 'spam' })).message).toBe('Channel not found');
    const own = await seedVideo(t.ctx, who.id);
    const res = await report(who, { targetType: 'video', targetId: own.id, reason: 'spam' });
    expect(res.statusCode).toBe(400);
    expect(res.message).toBe('You cannot report your own video');
  });

  it('takes one open report per person and item, of videos, comments and channels', async () => {
    const owner = await t.signUp();
    const a = await t.signUp();
    const video = await seedVideo(t.ctx, owner.id);
    const res = await report(a, { targetType: 'video', targetId: video.id, reason: 'copyright', note: ' My film ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ statusCode: 201, success: true, message: 'Report received' });
    expect(res.data).toMatchObject({ targetType: 'video', targetId: video.id, reason: 'copyright', note: 'My film', state: 'open' });
    const again = await report(a, { targetType: 'video', targetId: video.id, reason: 'spam' });
    expect(again.statusCode).toBe(409);
    expect(again.message).toBe('You have already reported this video');
    const comment = await t.call({ method: 'POST', url: `${API}/comments/${video.id}`, as: owner, payload: { content: 'rude words' } });
    expect((await report(a, { targetType: 'comment', targetId: comment.data._id, reason: 'harassment' })).statusCode).toBe(201);
    expect((await report(a, { targetType: 'channel', targetId: owner.id, reason: 'spam' })).statusCode).toBe(201);
  });
});

describe('GET /admin/reports', () => {
  it('is for moderators and admins', async () => {
    expect((await queue(undefined)).statusCode).toBe(401);
    const refused = await queue(staff.user);
    expect(refused.statusCode).toBe(403);
    expect(refused.message).toBe('Only moderators and admins may do that');
    expect((await queue(staff.moderator)).statusCode).toBe(200);
    expect((await queue(staff.admin)).statusCode).toBe(200);
    const bad = await queue(staff.admin, 'pending');
    expect(bad.statusCode).toBe(400);
    expect(bad.message).toContain('state must be one of open, resolved, dismissed');
  });

  it('groups open reports by item with counts, reasons and a preview', async () => {
    const owner = await t.signUp();
    const video = await seedVideo(t.ctx, owner.id, { title: 'Reported clip' });
    for (const reason of ['spam', 'spam', 'violence'])
      expect((await report(await t.signUp(), { targetType: 'video', targetId: video.id, reason })).statusCode).toBe(201);
    const group = await groupOf(video.id);
    expect(group).toMatchObject({
      targetType: 'video',
      count: 3,
      reasons: { spam: 2, violence: 1 },
      preview: { title: 'Reported clip', owner: { _id: owner.id, username: owner.username, banned: false }, hidden: null, exists: true },
    });
    expect(group.reports).toHaveLength(3);
    expect(group.preview.thumbnail).toContain(video.id);
  });
});

describe('PATCH /admin/reports/:id', () => {
  async function reported(reason = 'spam') {
    const owner = await t.signUp();
    const video = await seedVideo(t.ctx, owner.id, { title: `Clip ${Math.random()}` });
    const res = await report(await t.signUp(), { targetType: 'video', targetId: video.id, reason });
    return { owner, video, reportId: res.data._id as string };
  }

  it('is for moderators and admins; checks its input; 404 for a missing report', async () => {
    const { video, reportId } = await reported();
    expect((await act(undefined, reportId, { action: 'dismiss' })).statusCode).toBe(401);
    expect((await act(staff.user, reportId, { action: 'dismiss' })).statusCode).toBe(403);
    const bad = await act(staff.moderator, reportId, { action: 'nuke' });
    expect(bad.statusCode).toBe(400);
    expect(bad.message).toContain('action must be one of dismiss, hide, restore, delete, ban');
    const noNote = await act(staff.moderator, reportId, { action: 'hide' });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.message).toBe('note is required to hide: the owner sees it as the reason');
    expect((await act(staff.moderator, MISSING_ID, { action: 'dismiss' })).statusCode).toBe(404);
    expect((await videoRow(t.ctx, video.id)).hidden_at).toBeNull();
  });

  it('dismiss closes every open report of the item; a second action is a conflict', async () => {
    const { video, reportId } = await reported();
    await report(await t.signUp(), { targetType: 'video', targetId: video.id, reason: 'other' });
    const res = await act(staff.moderator, reportId, { action: 'dismiss', note: 'Not a problem' });
    expect(res.statusCode).toBe(200);
    expect(await groupOf(video.id)).toBeUndefined();
    expect((await groupOf(video.id, 'dismissed')).count).toBe(2);
    expect((await act(staff.admin, reportId, { action: 'hide', note: 'x' })).statusCode).toBe(409);
    expect(await auditOf(video.id)).toEqual([`reports.dismiss by ${staff.moderator.username}: Not a problem`]);
  });

  it('hide: the video is a 404 for others, gone from lists and counts, and its owner sees the reason; an appeal and a restore bring it back', async () => {
    const { owner, video, reportId } = await reported('violence');
    const publicBefore = Number((await t.call({ method: 'GET', url: `${API}/videos/?pageSize=1` })).data.totalDocs);
    const hide = await act(staff.moderator, reportId, { action: 'hide', note: 'Graphic violence' });
    expect(hide.statusCode).toBe(200);
    expect((await getVideo(video.id)).statusCode).toBe(404);
    expect((await getVideo(video.id, staff.user)).statusCode).toBe(404);
    expect(Number((await t.call({ method: 'GET', url: `${API}/videos/?pageSize=1` })).data.totalDocs)).toBe(publicBefore - 1);
    const mine = await getVideo(video.id, owner);
    expect(mine.statusCode).toBe(200);
    expect(mine.data.takedown).toMatchObject({ reason: 'Graphic violence', appealedAt: null });
    expect((await getVideo(video.id, staff.moderator)).data.takedown.reason).toBe('Graphic violence');

    // The appeal: owner only, once.
    expect((await appeal(undefined, video.id)).statusCode).toBe(401);
    expect((await appeal(staff.user, video.id)).statusCode).toBe(404);
    const notOwner = await appeal(staff.admin, video.id);
    expect(notOwner.statusCode).toBe(403);
    expect((await appeal(owner, video.id, '   ')).statusCode).toBe(400);
    const sent = await appeal(owner, video.id);
    expect(sent.statusCode).toBe(201);
    expect(sent.data).toMatchObject({ reason: 'appeal', note: 'It is my own footage', state: 'open' });
    const twice = await appeal(owner, video.id);
    expect(twice.statusCode).toBe(409);
    expect(twice.message).toBe('You have already appealed this takedown');
    expect((await getVideo(video.id, owner)).data.takedown.appealedAt).not.toBeNull();

    const group = await groupOf(video.id);
    expect(group).toMatchObject({ count: 1, reasons: { appeal: 1 }, preview: { hidden: { reason: 'Graphic violence', appeal: 'It is my own footage' } } });
    const restore = await act(staff.admin, group.reports[0]._id, { action: 'restore', note: 'Appeal granted' });
    expect(restore.statusCode).toBe(200);
    expect((await getVideo(video.id)).statusCode).toBe(200);
    expect((await getVideo(video.id, owner)).data.takedown).toBeNull();
    expect(Number((await t.call({ method: 'GET', url: `${API}/videos/?pageSize=1` })).data.totalDocs)).toBe(publicBefore);
    expect(await auditOf(video.id)).toEqual([
      `video.hide by ${staff.moderator.username}: Graphic violence`,
      `video.appeal by ${owner.username}: It is my own footage`,
      `video.restore by ${staff.admin.username}: Appeal granted`,
    ]);
  });

  it('appeal: only for a video that is taken down', async () => {
    const owner = await t.signUp();
    const video = await seedVideo(t.ctx, owner.id);
    const res = await appeal(owner, video.id);
    expect(res.statusCode).toBe(409);
    expect(res.message).toBe('This video is not taken down');
    expect((await appeal(owner, MISSING_ID)).statusCode).toBe(404);
  });

  it('delete removes the video with its files, or the comment', async () => {
    const { video, reportId } = await reported();
    await t.ctx.storage.put(`videos/${video.id}/thumbnail.webp`, Buffer.from('x'), 'image/webp');
    expect((await act(staff.moderator, reportId, { action: 'delete', note: 'Spam' })).statusCode).toBe(200);
    expect(await t.ctx.db.selectFrom('videos').select('id').where('id', '=', video.id).executeTakeFirst()).toBeUndefined();
    expect(await t.ctx.storage.list(`videos/${video.id}/`)).toEqual([]);
    expect((await groupOf(video.id, 'resolved')).preview.exists).toBe(false);

    const owner = await t.signUp();
    const v2 = await seedVideo(t.ctx, owner.id);
    const c = await t.call({ method: 'POST', url: `${API}/comments/${v2.id}`, as: owner, payload: { content: 'spam spam' } });
    const r = await report(await t.signUp(), { targetType: 'comment', targetId: c.data._id, reason: 'spam' });
    expect((await act(staff.moderator, r.data._id, { action: 'hide', note: 'x' })).statusCode).toBe(400);
    expect((await act(staff.moderator, r.data._id, { action: 'delete' })).statusCode).toBe(200);
    expect((await videoRow(t.ctx, v2.id)).comments_count).toBe(0);
  });
});

describe('bans', () => {
  it('a banned account vanishes from every list, search, channel page and count, and comes back exactly when unbanned', async () => {
    const spammer = await t.signUp({ fullName: 'Spammy Spammer' });
    const viewer = await t.signUp();
    const own = await seedVideo(t.ctx, spammer.id, { title: 'Buy cheap watches' });
    const other = await seedVideo(t.ctx, viewer.id, { title: 'Honest video' });
    await t.call({ method: 'POST', url: `${API}/comments/${other.id}`, as: spammer, payload: { content: 'Visit my site' } });
    await t.call({ method: 'POST', url: `${API}/comments/${other.id}`, as: viewer, payload: { content: 'Nice' } });

    const snapshot = async () => ({
      total: (await t.call({ method: 'GET', url: `${API}/videos/?pageSize=50` })).data.totalDocs,
      search: (await t.call({ method: 'GET', url: `${API}/videos/?query=watches` })).data.videos.map((v: { _id: string }) => v._id),
      byOwner: (await t.call({ method: 'GET', url: `${API}/videos/?userId=${spammer.id}` })).data.totalDocs,
      channel: (await t.call({ method: 'GET', url: `${API}/users/channel/${spammer.username}` })).statusCode,
      video: (await getVideo(own.id, viewer)).statusCode,
      comments: (await t.call({ method: 'GET', url: `${API}/comments/${other.id}` })).data.comments.map((c: { content: string }) => c.content),
      commentTotal: (await t.call({ method: 'GET', url: `${API}/comments/${other.id}` })).data.totalDocs,
      commentsCount: (await getVideo(other.id)).data.commentsCount,
      videosCount: (await t.ctx.db.selectFrom('users').select('videos_count').where('id', '=', spammer.id).executeTakeFirstOrThrow()).videos_count,
    });
    const before = await snapshot();
    expect(before).toMatchObject({
      search: [own.id],
      byOwner: 1,
      channel: 200,
      video: 200,
      comments: ['Nice', 'Visit my site'],
      commentTotal: 2,
      commentsCount: 2,
      videosCount: 1,
    });

    const r = await report(viewer, { targetType: 'channel', targetId: spammer.id, reason: 'spam' });
    expect((await act(staff.moderator, r.data._id, { action: 'ban', note: 'Spam account' })).statusCode).toBe(200);
    expect(await snapshot()).toEqual({
      total: before.total - 1,
      search: [],
      byOwner: 0,
      channel: 404,
      video: 404,
      comments: ['Nice'],
      commentTotal: 1,
      commentsCount: 1,
      videosCount: 0,
    });
    expect((await t.call({ method: 'GET', url: `${API}/users/user/current`, as: spammer })).statusCode).toBe(401);
    expect((await t.call({ method: 'POST', url: `${API}/users/login`, payload: { email: spammer.email, password: spammer.password } })).message).toBe(
      'This account is banned',
    );
    expect((await t.call({ method: 'POST', url: `${API}/subscriptions/channel/${spammer.id}`, as: viewer })).statusCode).toBe(404);

    await setBanned(t.ctx.db, { id: staff.admin.id, username: staff.admin.username }, spammer.id, null, t.ctx.answers);
    expect(await snapshot()).toEqual(before);
    expect((await t.call({ method: 'POST', url: `${API}/users/login`, payload: { email: spammer.email, password: spammer.password } })).statusCode).toBe(200);
    expect(await auditOf(spammer.id)).toEqual([`user.ban by ${staff.moderator.username}: Spam account`, `user.unban by ${staff.admin.username}`]);
  });

  it('staff accounts cannot be banned from the queue', async () => {
    const video = await seedVideo(t.ctx, staff.admin.id);
    const r = await report(staff.user, { targetType: 'video', targetId: video.id, reason: 'spam' });
    const res = await act(staff.moderator, r.data._id, { action: 'ban', note: 'x' });
    expect(res.statusCode).toBe(403);
    expect(res.message).toBe('Moderators and admins cannot be banned; change their role first');
  });
});

describe('GET /admin/audit-log', () => {
  it('is for moderators and admins, newest first, paged', async () => {
    expect((await t.call({ method: 'GET', url: `${API}/admin/audit-log` })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: `${API}/admin/audit-log`, as: staff.user })).statusCode).toBe(403);
    const res = await t.call({ method: 'GET', url: `${API}/admin/audit-log?pageSize=2`, as: staff.moderator });
    expect(res.statusCode).toBe(200);
    expect(res.data.entries).toHaveLength(2);
    expect(res.data.totalDocs).toBeGreaterThan(2);
    expect(Date.parse(res.data.entries[0].createdAt)).toBeGreaterThanOrEqual(Date.parse(res.data.entries[1].createdAt));
    expect(res.data.entries[0]).toMatchObject({ actor: { username: expect.any(String) }, target: { type: expect.any(String) } });
    expect((await t.call({ method: 'GET', url: `${API}/admin/audit-log`, as: staff.admin })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: `${API}/admin/audit-log?pageSize=500`, as: staff.admin })).message).toContain('pageSize must be at most 100');
  });
});
