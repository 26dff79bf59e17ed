import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeVideos, seedVideo } from '../../../test/support/seed.js';
import { setBanned, signUpAs } from '../../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

let t: TestApp;
let fan: SignedIn;
let followed: SignedIn;
let alsoFollowed: SignedIn;
let stranger: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  [fan, followed, alsoFollowed, stranger] = await Promise.all([t.signUp(), t.signUp(), t.signUp(), t.signUp()]);
  for (const channel of [followed, alsoFollowed]) {
    expect((await t.call({ method: 'POST', url: `/api/v1/subscriptions/channel/${channel.id}`, as: fan })).data).toBe(true);
  }
});
afterAll(() => t?.close());

const feed = (as?: SignedIn, query = '') => t.call({ method: 'GET', url: `/api/v1/feed/subscriptions${query}`, as });
const channels = (as?: SignedIn, query = '') => t.call({ method: 'GET', url: `/api/v1/subscriptions/user/channels${query}`, as });
const ids = (res: { data: { videos: { _id: string }[] } }) => res.data.videos.map((v) => v._id);

describe('GET /feed/subscriptions', () => {
  it('needs sign-in', async () => {
    expect((await feed()).statusCode).toBe(401);
  });

  it('lists the listed videos of followed channels only, newest first, paged', async () => {
    const a = await seedVideo(t.ctx, followed.id);
    const b = await seedVideo(t.ctx, alsoFollowed.id);
    const c = await seedVideo(t.ctx, followed.id);
    await seedVideo(t.ctx, stranger.id);
    const first = await feed(fan, '?pageNumber=1&pageSize=2');
    expect(first.statusCode).toBe(200);
    expect(ids(first)).toEqual([c.id, b.id]);
    expect(first.data).toMatchObject({ totalDocs: 3, currentPage: 1, totalPages: 2, hasNextPage: true, nextPage: 2, prevPage: null });
    expect(first.data.videos[0]).toMatchObject({ owner: { _id: followed.id, username: followed.username }, visibility: 'public' });
    const second = await feed(fan, '?pageNumber=2&pageSize=2');
    expect(ids(second)).toEqual([a.id]);
    expect((await feed(fan, '?pageNumber=9&pageSize=2')).data.videos).toEqual([]);
    // Someone else's feed is their own: the stranger follows nobody.
    expect((await feed(stranger)).data).toMatchObject({ videos: [], totalDocs: 0 });
  });

  it('never shows private, unlisted, unfinished, failed, taken-down or banned videos', async () => {
    const channel = await t.signUp();
    await t.call({ method: 'POST', url: `/api/v1/subscriptions/channel/${channel.id}`, as: fan });
    const shown = await seedVideo(t.ctx, channel.id);
    const hidden = [
      await seedVideo(t.ctx, channel.id, { visibility: 'private' }),
      await seedVideo(t.ctx, channel.id, { visibility: 'unlisted' }),
      await seedVideo(t.ctx, channel.id, { status: 'processing', progress: 10 }),
      await seedVideo(t.ctx, channel.id, { status: 'failed', failure_reason: 'broken' }),
    ];
    const takenDown = await seedVideo(t.ctx, channel.id);
    await changeVideos(t.ctx, [takenDown.id], { hidden_at: Date.now(), hidden_reason: 'spam' });
    const seen = ids(await feed(fan, '?pageSize=50'));
    expect(seen).toContain(shown.id);
    for (const v of [...hidden, takenDown]) expect(seen).not.toContain(v.id);

    const admin = await signUpAs(t, 'admin');
    await setBanned(t.ctx.db, { id: admin.id, username: admin.username }, channel.id, { reason: 'spam' }, t.ctx.answers);
    expect(ids(await feed(fan, '?pageSize=50'))).not.toContain(shown.id);
    expect((await channels(fan, '?pageSize=50')).data.channels.map((c: { _id: string }) => c._id)).not.toContain(channel.id);
  });

  it('is 400 for bad paging', async () => {
    for (const q of ['?pageSize=51', '?pageNumber=0', '?pageNumber=x']) expect((await feed(fan, q)).statusCode).toBe(400);
  });
});

describe('GET /subscriptions/user/channels', () => {
  it('needs sign-in and rejects bad paging', async () => {
    expect((await channels()).statusCode).toBe(401);
    expect((await channels(fan, '?pageSize=0')).statusCode).toBe(400);
  });

  it('lists the followed channels by username with their avatars, and follows unsubscribing', async () => {
    await t.ctx.db
      .updateTable('users')
      .set({ avatar_key: `users/${followed.id}/avatar-x.webp` })
      .where('id', '=', followed.id)
      .execute();
    const res = await channels(fan);
    expect(res.statusCode).toBe(200);
    const expected = [followed, alsoFollowed].sort((x, y) => x.username.localeCompare(y.username));
    expect(res.data.channels.map((c: { username: string }) => c.username)).toEqual(expected.map((c) => c.username));
    const byId = Object.fromEntries(res.data.channels.map((c: { _id: string }) => [c._id, c]));
    expect(byId[followed.id].avatar.url).toBe(t.ctx.storage.url(`users/${followed.id}/avatar-x.webp`));
    expect(byId[alsoFollowed.id].avatar.url).toBe('/static/default-avatar.svg');
    expect(new Date(byId[followed.id].subscribedAt).toISOString()).toBe(byId[followed.id].subscribedAt);
    expect(res.data).toMatchObject({ totalDocs: 2, totalPages: 1 });
    expect((await channels(followed)).data).toMatchObject({ channels: [], totalDocs: 0 });

    const later = await t.signUp();
    await t.call({ method: 'POST', url: `/api/v1/subscriptions/channel/${later.id}`, as: fan });
    expect((await channels(fan)).data.totalDocs).toBe(3);
    await t.call({ method: 'POST', url: `/api/v1/subscriptions/channel/${later.id}`, as: fan });
    expect((await channels(fan)).data.totalDocs).toBe(2);
  });
});
