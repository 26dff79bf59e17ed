import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import { newId } from '../../lib/ids.js';
import { seedVideo } from '../../../test/support/seed.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { refreshVideoAccess } from '../../db/video-access.js';
import { utcDay, VideosRepository } from './videos.repository.js';
import { VIEW_WINDOW_MS } from './videos.service.js';
import { viewerKey } from '../../lib/viewer-key.js';

const API = '/api/v1';

const videosCount = async (ctx: AppContext, userId: string) =>
  (await ctx.db.selectFrom('users').select('videos_count').where('id', '=', userId).executeTakeFirstOrThrow()).videos_count;

let t: TestApp;
let owner: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp();
  other = await t.signUp();
});
afterAll(() => t.close());

describe('PATCH /videos/increment-views/{id}', () => {
  const view = (id: string, opts: { as?: SignedIn; ua?: string; ip?: string } = {}) =>
    t.call({
      method: 'PATCH',
      url: `${API}/videos/increment-views/${id}`,
      as: opts.as,
      headers: { 'user-agent': opts.ua ?? 'test-browser/1' },
      remoteAddress: opts.ip ?? '203.0.113.7',
    });

  it('counts one view per viewer per video per hour and answers the count', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const first = await view(video.id);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ statusCode: 200, success: true, data: { views: 1 }, message: 'View counted' });
    const again = await view(video.id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ data: { views: 1 }, message: 'View already counted' });

    // Another browser or address is another anonymous viewer; a signed-in user is themselves anywhere.
    expect((await view(video.id, { ua: 'other-browser/2' })).data.views).toBe(2);
    expect((await view(video.id, { ip: '198.51.100.1' })).data.views).toBe(3);
    expect((await view(video.id, { as: other })).data.views).toBe(4);
    expect((await view(video.id, { as: other, ua: 'phone', ip: '198.51.100.9' })).data.views).toBe(4);
    expect((await view(video.id, { as: owner })).data.views).toBe(5);

    const stored = await t.ctx.db.selectFrom('videos').select('views').where('id', '=', video.id).executeTakeFirstOrThrow();
    expect(Number(stored.views)).toBe(5);
    const page = await t.call({ method: 'GET', url: `${API}/videos/${video.id}` });
    expect(page.data.views).toBe(5);
  });

  it('counts once when the same viewer calls many times at once', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const answers = await Promise.all(Array.from({ length: 12 }, () => view(video.id, { as: other })));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const stored = await t.ctx.db.selectFrom('videos').select('views').where('id', '=', video.id).executeTakeFirstOrThrow();
    expect(Number(stored.views)).toBe(1);
  });

  it('is 404 for missing and hidden videos, 400 for a malformed id', async () => {
    expect((await view(newId())).statusCode).toBe(404);
    expect((await view('no!')).statusCode).toBe(400);
    const hidden = await seedVideo(t.ctx, owner.id, { visibility: 'private' });
    const processing = await seedVideo(t.ctx, owner.id, { status: 'processing', video_key: null });
    for (const id of [hidden.id, processing.id]) {
      expect((await view(id)).statusCode).toBe(404);
      expect((await view(id, { as: other })).statusCode).toBe(404);
    }
    const stored = await t.ctx.db.selectFrom('videos').select('views').where('id', '=', hidden.id).executeTakeFirstOrThrow();
    expect(Number(stored.views)).toBe(0);
  });

  it('is rate-limited per client', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_VIEWS_PER_MINUTE: '2' } });
    try {
      const user = await limited.signUp();
      const video = await seedVideo(limited.ctx, user.id);
      const call = () => limited.call({ method: 'PATCH', url: `${API}/videos/increment-views/${video.id}` });
      expect((await call()).statusCode).toBe(200);
      expect((await call()).statusCode).toBe(200);
      const res = await call();
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBeTruthy();
      expect(res.json()).toMatchObject({ success: false, statusCode: 429 });
    } finally {
      await limited.close();
    }
  });
});

describe('view counting window (repository)', () => {
  it('counts again only once the last counted view is an hour old', async () => {
    const repo = new VideosRepository(t.ctx.db, t.ctx.dialect);
    const video = await seedVideo(t.ctx, owner.id);
    const t0 = 1_800_000_000_000;
    expect(await repo.countView(video.id, 'u:someone', t0, VIEW_WINDOW_MS)).toEqual({ counted: true, views: 1 });
    expect(await repo.countView(video.id, 'u:someone', t0 + VIEW_WINDOW_MS - 1, VIEW_WINDOW_MS)).toEqual({ counted: false, views: 1 });
    expect(await repo.countView(video.id, 'u:else', t0 + 1, VIEW_WINDOW_MS)).toEqual({ counted: true, views: 2 });
    expect(await repo.countView(video.id, 'u:someone', t0 + VIEW_WINDOW_MS, VIEW_WINDOW_MS)).toEqual({ counted: true, views: 3 });
    // The window restarts at the view that was counted, not at the calls in between.
    expect(await repo.countView(video.id, 'u:someone', t0 + VIEW_WINDOW_MS + 10, VIEW_WINDOW_MS)).toEqual({ counted: false, views: 3 });
    const event = await t.ctx.db
      .selectFrom('view_events')
      .select('counted_at')
      .where('video_id', '=', video.id)
      .where('viewer_key', '=', 'u:someone')
      .executeTakeFirstOrThrow();
    expect(Number(event.counted_at)).toBe(t0 + VIEW_WINDOW_MS);
  });

  it('adds each counted view, and only those, to its UTC day', async () => {
    const repo = new VideosRepository(t.ctx.db, t.ctx.dialect);
    const video = await seedVideo(t.ctx, owner.id);
    const midnight = Date.UTC(2027, 0, 10);
    await repo.countView(video.id, 'u:a', midnight - 1, VIEW_WINDOW_MS);
    await repo.countView(video.id, 'u:b', midnight, VIEW_WINDOW_MS);
    await repo.countView(video.id, 'u:c', midnight + 5, VIEW_WINDOW_MS);
    await repo.countView(video.id, 'u:c', midnight + 6, VIEW_WINDOW_MS);
    const days = await t.ctx.db.selectFrom('video_daily_views').select(['day', 'views']).where('video_id', '=', video.id).orderBy('day').execute();
    expect(days.map((d) => [Number(d.day), Number(d.views)])).toEqual([
      [utcDay(midnight) - 1, 1],
      [utcDay(midnight), 2],
    ]);
  });
});

describe('viewerKey', () => {
  it('keys signed-in viewers by account and anonymous ones by a hash of address and browser', () => {
    const u = viewerKey({ userId: 'abc123', ip: '1.2.3.4', userAgent: 'x' });
    expect(u).toMatch(/^u:[\w-]{32}$/);
    expect(u).not.toContain('abc123');
    expect(viewerKey({ userId: 'abc123', ip: '9.9.9.9', userAgent: 'y' })).toBe(u);
    expect(viewerKey({ userId: 'abc124', ip: '1.2.3.4', userAgent: 'x' })).not.toBe(u);
    const a = viewerKey({ userId: null, ip: '1.2.3.4', userAgent: 'x' });
    expect(a).toMatch(/^a:[\w-]{32}$/);
    expect(a).not.toContain('1.2.3.4');
    expect(viewerKey({ userId: null, ip: '1.2.3.4', userAgent: 'x' })).toBe(a);
    expect(viewerKey({ userId: null, ip: '1.2.3.4', userAgent: 'y' })).not.toBe(a);
    expect(viewerKey({ userId: null, ip: '1.2.3.5', userAgent: 'x' })).not.toBe(a);
  });
});

describe('PATCH /videos/publish/{id}', () => {
  it('is for the owner only', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const url = `${API}/videos/publish/${video.id}`;
    expect((await t.call({ method: 'PATCH', url })).statusCode).toBe(401);
    const res = await t.call({ method: 'PATCH', url, as: other });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, data: null });
    expect((await t.call({ method: 'PATCH', url: `${API}/videos/publish/${newId()}`, as: owner })).statusCode).toBe(404);
    expect((await t.call({ method: 'PATCH', url: `${API}/videos/publish/x`, as: owner })).statusCode).toBe(400);
    const hidden = await seedVideo(t.ctx, owner.id, { visibility: 'private' });
    expect((await t.call({ method: 'PATCH', url: `${API}/videos/publish/${hidden.id}`, as: other })).statusCode).toBe(404);
  });

  it('toggles publishing, hides the video from others and keeps the channel count', async () => {
    const author = await t.signUp();
    const video = await seedVideo(t.ctx, author.id, { title: 'Toggle me' });
    await seedVideo(t.ctx, author.id, { title: 'Always public' });
    expect(await videosCount(t.ctx, author.id)).toBe(2);
    const url = `${API}/videos/publish/${video.id}`;

    const off = await t.call({ method: 'PATCH', url, as: author });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ success: true, message: 'Video unpublished' });
    expect(off.data).toMatchObject({ _id: video.id, isPublished: false, title: 'Toggle me' });
    expect(await videosCount(t.ctx, author.id)).toBe(1);
    expect((await t.call({ method: 'GET', url: `${API}/videos/${video.id}`, as: other })).statusCode).toBe(404);
    const theirList = await t.call({ method: 'GET', url: `${API}/videos/?userId=${author.id}` });
    expect(theirList.data.videos.map((v: { title: string }) => v.title)).toEqual(['Always public']);
    const search = await t.call({ method: 'GET', url: `${API}/videos/?query=toggle` });
    expect(search.data.totalDocs).toBe(0);
    const channel = await t.call({ method: 'GET', url: `${API}/users/channel/${author.username}` });
    expect(channel.data.videosCount).toBe(1);

    const on = await t.call({ method: 'PATCH', url, as: author });
    expect(on.json()).toMatchObject({ success: true, message: 'Video published', data: { isPublished: true } });
    expect(await videosCount(t.ctx, author.id)).toBe(2);
    expect((await t.call({ method: 'GET', url: `${API}/videos/${video.id}`, as: other })).statusCode).toBe(200);
  });
});

describe('refreshVideoAccess', () => {
  it('counts only ready, public videos of the owner', async () => {
    const author = await t.signUp();
    await seedVideo(t.ctx, author.id);
    const processing = await seedVideo(t.ctx, author.id, { status: 'processing' });
    await seedVideo(t.ctx, author.id, { status: 'failed' });
    await seedVideo(t.ctx, author.id, { visibility: 'private' });
    await seedVideo(t.ctx, other.id);
    await t.ctx.db.updateTable('users').set({ videos_count: 99 }).where('id', '=', author.id).execute();
    await refreshVideoAccess(t.ctx.db, { ownerId: author.id });
    expect(await videosCount(t.ctx, author.id)).toBe(1);
    // What the media pipeline does when a video becomes ready.
    await t.ctx.db.updateTable('videos').set({ status: 'ready' }).where('id', '=', processing.id).execute();
    await refreshVideoAccess(t.ctx.db, { ownerId: author.id });
    expect(await videosCount(t.ctx, author.id)).toBe(2);
  });
});
