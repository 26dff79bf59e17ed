import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role, Visibility } from './schema.js';
import { changeVideos, seedVideo } from '../../test/support/seed.js';
import { createTestApp, type SignedIn, type TestApp } from '../../test/support/test-app.js';
import { canWatch, listedVideo, refreshVideoAccess, type Viewer, watchableBy } from './video-access.js';

let t: TestApp;
let owner: SignedIn;
let stranger: SignedIn;
let moderator: SignedIn;
let admin: SignedIn;

const STATUSES = ['processing', 'ready', 'failed'] as const;
const VISIBILITIES: Visibility[] = ['public', 'unlisted', 'private'];

async function setRole(user: SignedIn, role: Role) {
  await t.ctx.db.updateTable('users').set({ role }).where('id', '=', user.id).execute();
  t.services.sessions.accountChanged(user.id);
}

async function setBanned(user: SignedIn, banned: boolean) {
  await t.ctx.db
    .updateTable('users')
    .set({ banned_at: banned ? Date.now() : null })
    .where('id', '=', user.id)
    .execute();
  await refreshVideoAccess(t.ctx.db, { ownerId: user.id });
  t.services.sessions.accountChanged(user.id);
}

const publicCount = async () =>
  Number((await t.ctx.db.selectFrom('counters').select('value').where('key', '=', 'public_videos').executeTakeFirstOrThrow()).value);
const channelCount = async (user: SignedIn) =>
  Number((await t.ctx.db.selectFrom('users').select('videos_count').where('id', '=', user.id).executeTakeFirstOrThrow()).videos_count);

beforeAll(async () => {
  t = await createTestApp();
  [owner, stranger, moderator, admin] = await Promise.all([t.signUp(), t.signUp(), t.signUp(), t.signUp()]);
  await setRole(moderator, 'moderator');
  await setRole(admin, 'admin');
});
afterAll(() => t?.close());

describe('the kept flags', () => {
  it('follow the rule for every state, visibility and takedown, and agree with canWatch and the SQL filters', async () => {
    const videos = [];
    for (const status of STATUSES) {
      for (const visibility of VISIBILITIES) {
        for (const hidden of [false, true]) {
          videos.push(await seedVideo(t.ctx, owner.id, { status, visibility, hidden_at: hidden ? Date.now() : null }));
        }
      }
    }
    const ids = videos.map((v) => v.id);
    const rows = await t.ctx.db.selectFrom('videos').selectAll().where('id', 'in', ids).execute();
    for (const row of rows) {
      const good = row.status === 'ready' && row.hidden_at === null;
      expect(row.watchable, row.id).toBe(good && row.visibility !== 'private' ? 1 : 0);
      expect(row.listed, row.id).toBe(good && row.visibility === 'public' ? 1 : 0);
    }
    // Not vacuous: one listed (ready, public, not hidden), two watchable (and unlisted).
    expect(rows.filter((r) => r.listed === 1)).toHaveLength(1);
    expect(rows.filter((r) => r.watchable === 1)).toHaveLength(2);

    const viewers: [string, Viewer | null][] = [
      ['anonymous', null],
      ['stranger', { id: stranger.id, role: 'user' }],
      ['owner', { id: owner.id, role: 'user' }],
      ['moderator', { id: moderator.id, role: 'moderator' }],
      ['admin', { id: admin.id, role: 'admin' }],
    ];
    const seen: Record<string, number> = {};
    for (const [name, viewer] of viewers) {
      const bySql = await t.ctx.db.selectFrom('videos').select('id').where('id', 'in', ids).where(watchableBy(viewer)).execute();
      const byRule = rows.filter((r) => canWatch(r, viewer));
      seen[name] = byRule.length;
      // The collections filter is never wider than what the viewer may open.
      for (const { id } of bySql)
        expect(
          byRule.map((r) => r.id),
          `${name} ${id}`,
        ).toContain(id);
    }
    expect(seen).toEqual({ anonymous: 2, stranger: 2, owner: 18, moderator: 4, admin: 18 });
    const listed = await t.ctx.db.selectFrom('videos').select('id').where('id', 'in', ids).where(listedVideo()).execute();
    expect(listed.map((r) => r.id)).toEqual(rows.filter((r) => r.listed === 1).map((r) => r.id));
  });

  it('hide a banned owner everywhere and bring back exactly what was there when unbanned, counts included', async () => {
    const author = await t.signUp();
    const shown = await seedVideo(t.ctx, author.id);
    const unlisted = await seedVideo(t.ctx, author.id, { visibility: 'unlisted' });
    await seedVideo(t.ctx, author.id, { visibility: 'private' });
    const before = await publicCount();
    expect(await channelCount(author)).toBe(1);

    await setBanned(author, true);
    expect(await publicCount()).toBe(before - 1);
    expect(await channelCount(author)).toBe(0);
    expect((await t.call({ method: 'GET', url: `/api/v1/videos/${shown.id}` })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/v1/videos/${unlisted.id}`, as: stranger })).statusCode).toBe(404);
    const list = await t.call({ method: 'GET', url: `/api/v1/videos/?userId=${author.id}` });
    expect(list.data.videos).toEqual([]);
    // Moderators can still review it; the banned owner cannot sign in to look.
    expect((await t.call({ method: 'GET', url: `/api/v1/videos/${shown.id}`, as: moderator })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/v1/users/user/current', as: author })).statusCode).toBe(401);

    await setBanned(author, false);
    expect(await publicCount()).toBe(before);
    expect(await channelCount(author)).toBe(1);
    expect((await t.call({ method: 'GET', url: `/api/v1/videos/${unlisted.id}`, as: stranger })).statusCode).toBe(200);
  });

  it('move with a takedown and its reversal', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const before = await publicCount();
    await changeVideos(t.ctx, [video.id], { hidden_at: Date.now(), hidden_reason: 'Spam' });
    expect(await publicCount()).toBe(before - 1);
    expect((await t.call({ method: 'GET', url: `/api/v1/videos/${video.id}`, as: stranger })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/v1/videos/${video.id}`, as: owner })).statusCode).toBe(200);
    await changeVideos(t.ctx, [video.id], { hidden_at: null, hidden_reason: null });
    expect(await publicCount()).toBe(before);
  });
});

describe('unlisted videos', () => {
  it('play by link for anyone and appear in no list, search or channel of anyone else', async () => {
    const video = await seedVideo(t.ctx, owner.id, { title: 'Quietly unlisted walrus', visibility: 'unlisted' });
    expect((await t.call({ method: 'GET', url: `/api/v1/videos/${video.id}` })).data).toMatchObject({ visibility: 'unlisted', isPublished: true });
    const ids = async (url: string, as?: SignedIn) => (await t.call({ method: 'GET', url, as })).data.videos.map((v: { _id: string }) => v._id);
    expect(await ids('/api/v1/videos/?query=walrus')).not.toContain(video.id);
    expect(await ids(`/api/v1/videos/?userId=${owner.id}`, stranger)).not.toContain(video.id);
    expect(await ids('/api/v1/videos/?pageSize=50')).not.toContain(video.id);
    // The owner sees it in their own channel list.
    expect(await ids(`/api/v1/videos/?userId=${owner.id}&pageSize=50`, owner)).toContain(video.id);
  });
});
