import { VideoDetail, VideoStats } from '@reelhouse/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedVideo } from '../../../test/support/seed.js';
import { createTestApp, multipart, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { utcDay } from './videos.repository.js';

const API = '/api/v1';
const ids = (res: { data: { videos: { _id: string }[] } }) => res.data.videos.map((v) => v._id);

let t: TestApp;
let owner: SignedIn;
let stranger: SignedIn;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp({ username: 'studioowner', fullName: 'Studio Owner' });
  stranger = await t.signUp();
  admin = await t.signUp();
  await t.ctx.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
}, 60_000);
afterAll(() => t.close());

const patch = async (id: string, fields: Record<string, string>, files: Record<string, string> = {}, as: SignedIn = owner) =>
  t.call({ method: 'PATCH', url: `${API}/videos/${id}`, payload: await multipart(fields, files), as });

const counts = async () => {
  const user = await t.ctx.db.selectFrom('users').select('videos_count').where('id', '=', owner.id).executeTakeFirstOrThrow();
  const site = await t.ctx.db.selectFrom('counters').select('value').where('key', '=', 'public_videos').executeTakeFirstOrThrow();
  return { channel: Number(user.videos_count), site: Number(site.value) };
};

/** Every place a video could show up for someone other than its owner. */
async function foundBy(viewer: SignedIn | undefined, id: string, title: string) {
  const home = await t.call({ method: 'GET', url: `${API}/videos/?pageSize=50`, as: viewer });
  const search = await t.call({ method: 'GET', url: `${API}/videos/?query=${encodeURIComponent(title)}`, as: viewer });
  const channel = await t.call({ method: 'GET', url: `${API}/videos/?userId=${owner.id}&pageSize=50`, as: viewer });
  const channelPage = await t.call({ method: 'GET', url: `${API}/users/channel/${owner.username}`, as: viewer });
  const feed = viewer ? await t.call({ method: 'GET', url: `${API}/feed/subscriptions?pageSize=50`, as: viewer }) : null;
  return {
    home: ids(home).includes(id),
    search: ids(search).includes(id),
    channel: ids(channel).includes(id),
    feed: feed ? ids(feed).includes(id) : false,
    homeTotal: home.data.totalDocs as number,
    channelTotal: channel.data.totalDocs as number,
    channelCount: channelPage.data.videosCount as number,
  };
}

describe('PATCH /videos/{id}: visibility', () => {
  it('an unlisted video plays by its id for anyone and appears in no list, search, channel or count', async () => {
    const title = 'Quokka unlisted footage';
    const v = await seedVideo(t.ctx, owner.id, { title });
    // The stranger follows the owner, so the video would reach their subscriptions feed too.
    expect((await t.call({ method: 'POST', url: `${API}/subscriptions/channel/${owner.id}`, as: stranger })).statusCode).toBe(200);
    const before = await foundBy(stranger, v.id, 'Quokka');
    expect(before).toMatchObject({ home: true, search: true, channel: true, feed: true });
    const countsBefore = await counts();

    const res = await patch(v.id, { visibility: 'unlisted' });
    expect(res.statusCode).toBe(200);
    expect(VideoDetail.parse(res.data)).toMatchObject({ visibility: 'unlisted', isPublished: true, publishAt: null });

    for (const viewer of [stranger, undefined]) {
      const watch = await t.call({ method: 'GET', url: `${API}/videos/${v.id}`, as: viewer });
      expect(watch.statusCode).toBe(200);
      const found = await foundBy(viewer, v.id, 'Quokka');
      expect(found).toEqual({
        home: false,
        search: false,
        channel: false,
        feed: false,
        homeTotal: before.homeTotal - 1,
        channelTotal: before.channelTotal - 1,
        channelCount: before.channelCount - 1,
      });
    }
    expect(await counts()).toEqual({ channel: countsBefore.channel - 1, site: countsBefore.site - 1 });
    // A view by link still counts.
    const view = await t.call({ method: 'PATCH', url: `${API}/videos/increment-views/${v.id}`, as: stranger });
    expect(view.statusCode).toBe(200);
  });

  it('a private video is missing to everyone but its owner and admins; the publish toggle makes it public', async () => {
    const v = await seedVideo(t.ctx, owner.id, { title: 'Private wombat' });
    expect((await patch(v.id, { visibility: 'private' })).data).toMatchObject({ visibility: 'private', isPublished: false });
    for (const viewer of [stranger, undefined]) {
      expect((await t.call({ method: 'GET', url: `${API}/videos/${v.id}`, as: viewer })).statusCode).toBe(404);
    }
    expect((await t.call({ method: 'GET', url: `${API}/videos/${v.id}`, as: owner })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: `${API}/videos/${v.id}`, as: admin })).statusCode).toBe(200);
    // Someone else's private video stays missing to them even when they try to change it.
    expect((await patch(v.id, { visibility: 'public' }, {}, stranger)).statusCode).toBe(404);

    const toggled = await t.call({ method: 'PATCH', url: `${API}/videos/publish/${v.id}`, as: owner });
    expect(toggled.data).toMatchObject({ visibility: 'public', isPublished: true });
    const unlisted = await patch(v.id, { visibility: 'unlisted' });
    expect(unlisted.data).toMatchObject({ isPublished: true });
    const back = await t.call({ method: 'PATCH', url: `${API}/videos/publish/${v.id}`, as: owner });
    expect(back.data).toMatchObject({ visibility: 'private', isPublished: false });
  });

  it('refuses an unknown visibility with the allowed values, and changes nothing', async () => {
    const v = await seedVideo(t.ctx, owner.id);
    const res = await patch(v.id, { visibility: 'friends', title: 'Should not stick' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('visibility must be one of public, unlisted, private');
    const row = await t.ctx.db.selectFrom('videos').select(['visibility', 'title']).where('id', '=', v.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ visibility: 'public', title: v.title });
  });
});

describe('PATCH /videos/{id}: publishAt', () => {
  it('schedules: private until then, the time on the video, one delayed job for that time', async () => {
    const v = await seedVideo(t.ctx, owner.id);
    const at = new Date(Date.now() + 3 * 3600_000);
    at.setUTCSeconds(0, 0);
    const res = await patch(v.id, { publishAt: at.toISOString() });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ visibility: 'private', isPublished: false, publishAt: at.toISOString() });
    expect((await t.call({ method: 'GET', url: `${API}/videos/${v.id}`, as: stranger })).statusCode).toBe(404);
    const jobs = await t.ctx.db.selectFrom('jobs').select(['name', 'payload', 'run_at']).where('name', '=', 'video.publish').execute();
    const job = jobs.find((j) => JSON.parse(String(j.payload)).videoId === v.id);
    expect(job).toBeDefined();
    expect(JSON.parse(String(job!.payload))).toEqual({ videoId: v.id, publishAt: at.getTime() });
    expect(Math.abs(Number(job!.run_at) - at.getTime())).toBeLessThan(5_000);

    // A visibility given later cancels the schedule; the toggle does too.
    const now = await patch(v.id, { visibility: 'unlisted' });
    expect(now.data).toMatchObject({ visibility: 'unlisted', publishAt: null });
    await patch(v.id, { publishAt: at.toISOString() });
    const toggled = await t.call({ method: 'PATCH', url: `${API}/videos/publish/${v.id}`, as: owner });
    expect(toggled.data).toMatchObject({ visibility: 'public', publishAt: null });
  });

  it('refuses a time in the past, a malformed time, and a schedule with a public visibility', async () => {
    const v = await seedVideo(t.ctx, owner.id);
    const past = await patch(v.id, { publishAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past.statusCode).toBe(400);
    expect(past.body).toContain('publishAt must be in the future');
    const garbled = await patch(v.id, { publishAt: 'next tuesday' });
    expect(garbled.statusCode).toBe(400);
    expect(garbled.body).toContain('publishAt must be an ISO 8601 date and time');
    const both = await patch(v.id, { publishAt: new Date(Date.now() + 60_000).toISOString(), visibility: 'public' });
    expect(both.statusCode).toBe(400);
    const row = await t.ctx.db.selectFrom('videos').select(['visibility', 'publish_at']).where('id', '=', v.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ visibility: 'public', publish_at: null });
  });
});

describe('PATCH /videos/{id}: thumbnailTime', () => {
  let videoId: string;
  beforeAll(async () => {
    const up = await t.call({
      method: 'POST',
      url: `${API}/videos/`,
      as: owner,
      payload: await multipart({ title: 'Frames', description: 'A clip to cut frames from' }, { videoFile: 'clip.mp4', thumbnail: 'image.png' }),
    });
    expect(up.statusCode).toBe(201);
    videoId = up.data._id;
  }, 60_000);

  const thumbnailOf = async () => {
    const row = await t.ctx.db.selectFrom('videos').select('thumbnail_key').where('id', '=', videoId).executeTakeFirstOrThrow();
    return row.thumbnail_key;
  };

  it('cuts the frame at that time as the thumbnail and removes the old one', async () => {
    const old = await thumbnailOf();
    const first = await patch(videoId, { thumbnailTime: '0.2' });
    expect(first.statusCode).toBe(200);
    const cutEarly = await thumbnailOf();
    expect(cutEarly).not.toBe(old);
    expect(await t.ctx.storage.stat(old)).toBeNull();
    const early = await t.ctx.storage.read(cutEarly).then(async (s) => Buffer.concat(await s.toArray()));
    const meta = await sharp(early).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 320, height: 240 });

    expect((await patch(videoId, { thumbnailTime: '1.8' })).statusCode).toBe(200);
    const late = await t.ctx.storage.read(await thumbnailOf()).then(async (s) => Buffer.concat(await s.toArray()));
    // testsrc2 moves: frames 1.6 s apart are different pictures.
    const [a, b] = await Promise.all([sharp(early).raw().toBuffer(), sharp(late).raw().toBuffer()]);
    let differing = 0;
    for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > 16) differing++;
    expect(differing / a.length).toBeGreaterThan(0.01);
  });

  it('refuses a time outside the video, a negative or non-numeric one, and an image sent with it', async () => {
    const before = await thumbnailOf();
    const beyond = await patch(videoId, { thumbnailTime: '30' });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.body).toContain("thumbnailTime must be within the video's length");
    expect((await patch(videoId, { thumbnailTime: '-1' })).statusCode).toBe(400);
    expect((await patch(videoId, { thumbnailTime: 'middle' })).statusCode).toBe(400);
    const both = await patch(videoId, { thumbnailTime: '1' }, { thumbnail: 'image.png' });
    expect(both.statusCode).toBe(400);
    expect(await thumbnailOf()).toBe(before);
  });
});

describe('GET /videos/{id}/stats', () => {
  it('gives the owner views per day for the last 28 days, zero-filled, and the totals', async () => {
    const v = await seedVideo(t.ctx, owner.id, { views: 12, likes_count: 3, comments_count: 2 });
    const today = utcDay(Date.now());
    await t.ctx.db
      .insertInto('video_daily_views')
      .values([
        { video_id: v.id, day: today, views: 4 },
        { video_id: v.id, day: today - 3, views: 5 },
        { video_id: v.id, day: today - 28, views: 3 },
      ])
      .execute();
    const res = await t.call({ method: 'GET', url: `${API}/videos/${v.id}/stats?days=28`, as: owner });
    expect(res.statusCode).toBe(200);
    const stats = VideoStats.parse(res.data);
    expect(stats.days).toHaveLength(28);
    expect(stats.days.at(-1)).toEqual({ date: new Date(today * 86_400_000).toISOString().slice(0, 10), views: 4 });
    expect(stats.days.at(-4)!.views).toBe(5);
    expect(stats.days.filter((d) => d.views === 0)).toHaveLength(26);
    expect(stats.totals).toEqual({ periodViews: 9, views: 12, likes: 3, comments: 2 });
    const week = await t.call({ method: 'GET', url: `${API}/videos/${v.id}/stats?days=7`, as: admin });
    expect(week.statusCode).toBe(200);
    expect(week.data.days).toHaveLength(7);
    const fallback = await t.call({ method: 'GET', url: `${API}/videos/${v.id}/stats`, as: owner });
    expect(fallback.data.days).toHaveLength(28);
  });

  it('is for the owner and admins only, and checks its query', async () => {
    const v = await seedVideo(t.ctx, owner.id);
    const hidden = await seedVideo(t.ctx, owner.id, { visibility: 'private' });
    expect((await t.call({ method: 'GET', url: `${API}/videos/${v.id}/stats` })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: `${API}/videos/${v.id}/stats`, as: stranger })).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url: `${API}/videos/${hidden.id}/stats`, as: stranger })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `${API}/videos/nosuchvideo1/stats`, as: owner })).statusCode).toBe(404);
    for (const days of ['0', '366', 'many', '2.5']) {
      const res = await t.call({ method: 'GET', url: `${API}/videos/${v.id}/stats?days=${days}`, as: owner });
      expect(res.statusCode).toBe(400);
      expect(res.body).toMatch(/days must be/);
    }
  });
});
