import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedVideo } from '../../test/support/seed.js';
import { signUpAs } from '../../test/support/staff.js';
import { createTestApp, multipart, type SignedIn, type TestApp } from '../../test/support/test-app.js';
import { VideoMediaRepository } from '../modules/pipeline/video-media.repository.js';
import { LocalQueue } from '../jobs/local-queue.js';
import { ScheduledPublishing } from '../modules/videos/scheduled-publishing.js';
import { ScheduledPublishingRepository } from '../modules/videos/scheduled-publishing.repository.js';

const API = '/api/v1';
const silent = { debug() {}, info() {}, warn() {}, error() {} };

let t: TestApp;
let owner: SignedIn;
let viewer: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp();
  viewer = await t.signUp();
}, 60_000);
afterAll(() => t.close());

const get = (url: string, opts: { as?: SignedIn; headers?: Record<string, string>; cookies?: Record<string, string> } = {}) =>
  t.call({ method: 'GET', url: `${API}${url}`, ...opts });
const feedIds = async () => (await get('/videos/')).data.videos.map((v: { _id: string }) => v._id) as string[];
const channelVideos = (userId: string) => `/videos/?userId=${userId}`;

/** Asks twice: the second answer is kept, so what a later ask sees tells whether a change dropped it. */
async function primed(url: string) {
  await get(url);
  const second = await get(url);
  expect(second.headers['x-cache']).toBe('hit');
  return second;
}

describe('anonymous answers', () => {
  it('are served from the cache the second time, with the same body, envelope and headers', async () => {
    const video = await seedVideo(t.ctx, owner.id, { title: 'Cached once' });
    const first = await get(`/videos/${video.id}`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-cache']).toBe('miss');
    const second = await get(`/videos/${video.id}`, { headers: { 'x-request-id': 'second-ask' } });
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.json()).toMatchObject({ statusCode: 200, success: true, message: 'Video fetched', data: { _id: video.id } });
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    // What every answer carries is made again for this request.
    expect(second.headers['x-request-id']).toBe('second-ask');
    for (const name of ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'x-ratelimit-limit']) {
      expect(second.headers[name], name).toBe(first.headers[name]);
    }
  });

  it('asked for by many at once while missing, are made once and shared with the others', async () => {
    const video = await seedVideo(t.ctx, owner.id, { title: 'Asked at once' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => get(`/videos/${video.id}`)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(200));
    expect(answers.filter((a) => a.headers['x-cache'] === 'miss')).toHaveLength(1);
    for (const a of answers) expect(a.body).toBe(answers[0]!.body);
  });

  it('that fail are not shared: the others are answered on their own', async () => {
    const answers = await Promise.all(Array.from({ length: 3 }, () => get('/videos/AAAAAAAAAAAAAAAA')));
    expect(answers.map((a) => a.statusCode)).toEqual([404, 404, 404]);
    expect(answers.map((a) => a.headers['x-cache'])).toEqual(['miss', 'miss', 'miss']);
  });

  it('share one answer between queries that mean the same', async () => {
    await get('/videos/?pageSize=7&pageNumber=1&unknown=x');
    expect((await get('/videos/?pageNumber=1&pageSize=7')).headers['x-cache']).toBe('hit');
    await seedVideo(t.ctx, owner.id);
    await get('/videos/');
    expect((await get('/videos/?pageNumber=1')).headers['x-cache']).toBe('hit');
  });

  it('keep nothing but 200 answers', async () => {
    const missing = '0123456789abcdef01234567';
    expect((await get(`/videos/${missing}`)).statusCode).toBe(404);
    const again = await get(`/videos/${missing}`);
    expect(again.statusCode).toBe(404);
    expect(again.headers['x-cache']).toBe('miss');
    expect((await get('/videos/?pageSize=1000')).statusCode).toBe(400);
  });

  it('cover the hot public reads and nothing personal', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    for (const url of [
      '/videos/',
      channelVideos(owner.id),
      `/videos/${video.id}`,
      '/videos/trending',
      `/videos/${video.id}/related`,
      `/users/channel/${owner.username}`,
      `/comments/${video.id}`,
      `/playlist/user/${owner.id}`,
      `/likes/count/${video.id}?contentType=video`,
      '/instance',
    ]) {
      expect((await get(url)).statusCode, url).toBe(200);
      expect((await get(url)).headers['x-cache'], url).toBe('hit');
    }
    expect((await get('/users/user/current')).headers['x-cache']).toBeUndefined();
    expect((await get(`/subscriptions/channel/${owner.id}`)).headers['x-cache']).toBeUndefined();
  });
});

describe('signed-in and credentialed requests', () => {
  it('never get a kept answer as it is: the public part, with their own fields put in', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    await t.call({ method: 'POST', url: `${API}/likes/toggle/video/${video.id}`, as: viewer });
    const signedIn = await get(`/videos/${video.id}`, { as: viewer });
    expect(signedIn.data.isLiked).toBe(true);
    expect(signedIn.headers['x-cache']).toBe('miss');
    // What it kept is the public answer: the first anonymous ask finds it, and says isLiked false.
    const anon = await get(`/videos/${video.id}`);
    expect(anon.headers['x-cache']).toBe('hit');
    expect(anon.data.isLiked).toBe(false);
    // Kept: a signed-in caller gets it with their own fields, by cookie as by Bearer.
    const again = await get(`/videos/${video.id}`, { as: viewer });
    expect(again.headers['x-cache']).toBe('shared');
    expect(again.data.isLiked).toBe(true);
    const byCookie = await get(`/videos/${video.id}`, { cookies: { accessToken: viewer.accessToken } });
    expect(byCookie.headers['x-cache']).toBe('shared');
    expect(byCookie.data.isLiked).toBe(true);
  });

  it('with an invalid or expired token, or only a refresh cookie, are answered afresh and fill nothing', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const url = `/videos/${video.id}/related`;
    for (const opts of [
      { headers: { authorization: 'Bearer not-a-token' } },
      { headers: { authorization: 'Basic dXNlcjpwYXNz' } },
      { cookies: { accessToken: 'expired.or.forged' } },
      { cookies: { refreshToken: viewer.refreshToken } },
    ]) {
      const res = await get(url, opts);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-cache']).toBeUndefined();
    }
    expect((await get(url)).headers['x-cache']).toBe('miss');
  });
});

describe('writes make the next anonymous answer fresh', () => {
  it('an upload that is ready', async () => {
    await primed('/videos/');
    const form = await multipart({ title: 'Fresh upload', description: 'new' }, { videoFile: 'clip.mp4', thumbnail: 'image.png' });
    const up = await t.call({ method: 'POST', url: `${API}/videos/`, as: owner, payload: form });
    expect(up.statusCode).toBe(201);
    expect(await feedIds()).toContain(up.data._id);
  });

  it('processing that finishes, as the media jobs record it', async () => {
    const video = await seedVideo(t.ctx, owner.id, { status: 'processing', progress: 10, video_key: null });
    expect(await feedIds()).not.toContain(video.id);
    await primed('/videos/');
    await new VideoMediaRepository(t.ctx.db, t.ctx.answers).markPlayable(video.id, {
      videoKey: `videos/${video.id}/video.mp4`,
      duration: 3,
      width: 320,
      height: 240,
    });
    expect(await feedIds()).toContain(video.id);
  });

  it('a title edit, on the video page, the feed and the channel', async () => {
    const video = await seedVideo(t.ctx, owner.id, { title: 'Before the edit' });
    for (const url of [`/videos/${video.id}`, '/videos/', channelVideos(owner.id)]) await primed(url);
    const edit = await t.call({ method: 'PATCH', url: `${API}/videos/${video.id}`, as: owner, payload: await multipart({ title: 'After the edit' }) });
    expect(edit.statusCode).toBe(200);
    const page = await get(`/videos/${video.id}`);
    expect(page.headers['x-cache']).toBe('miss');
    expect(page.data.title).toBe('After the edit');
    expect((await get('/videos/')).data.videos.find((v: { _id: string }) => v._id === video.id).title).toBe('After the edit');
    expect((await get(channelVideos(owner.id))).headers['x-cache']).toBe('miss');
  });

  it('unpublishing and deleting', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    await primed(`/videos/${video.id}`);
    expect((await t.call({ method: 'PATCH', url: `${API}/videos/publish/${video.id}`, as: owner })).data.isPublished).toBe(false);
    expect((await get(`/videos/${video.id}`)).statusCode).toBe(404);
    expect(await feedIds()).not.toContain(video.id);

    const gone = await seedVideo(t.ctx, owner.id);
    await primed(`/videos/${gone.id}`);
    await primed('/videos/');
    expect((await t.call({ method: 'DELETE', url: `${API}/videos/${gone.id}`, as: owner })).statusCode).toBe(200);
    expect((await get(`/videos/${gone.id}`)).statusCode).toBe(404);
    expect(await feedIds()).not.toContain(gone.id);
  });

  it('a comment and a like', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    await primed(`/comments/${video.id}`);
    await primed(`/videos/${video.id}`);
    const added = await t.call({ method: 'POST', url: `${API}/comments/${video.id}`, as: viewer, payload: { content: 'First!' } });
    expect(added.statusCode).toBe(201);
    expect((await get(`/comments/${video.id}`)).data.comments.map((c: { content: string }) => c.content)).toEqual(['First!']);
    expect((await get(`/videos/${video.id}`)).data.commentsCount).toBe(1);

    await primed(`/videos/${video.id}`);
    await primed(`/likes/count/${video.id}?contentType=video`);
    await t.call({ method: 'POST', url: `${API}/likes/toggle/video/${video.id}`, as: viewer });
    expect((await get(`/videos/${video.id}`)).data.likesCount).toBe(1);
    expect((await get(`/likes/count/${video.id}?contentType=video`)).data).toBe(1);
  });

  it('a subscription and a profile edit', async () => {
    await primed(`/users/channel/${owner.username}`);
    await t.call({ method: 'POST', url: `${API}/subscriptions/channel/${owner.id}`, as: viewer });
    const channel = await get(`/users/channel/${owner.username}`);
    expect(channel.headers['x-cache']).toBe('miss');
    await primed(`/users/channel/${owner.username}`);
    await t.call({ method: 'PATCH', url: `${API}/users/update-account`, as: owner, payload: { fullName: 'Renamed Owner' } });
    expect((await get(`/users/channel/${owner.username}`)).data.fullName).toBe('Renamed Owner');
  });

  it('a take-down by a moderator', async () => {
    const moderator = await signUpAs(t, 'moderator');
    const video = await seedVideo(t.ctx, owner.id);
    await primed(`/videos/${video.id}`);
    const report = await t.call({ method: 'POST', url: `${API}/reports`, as: viewer, payload: { targetType: 'video', targetId: video.id, reason: 'spam' } });
    expect(report.statusCode).toBe(201);
    const hide = await t.call({ method: 'PATCH', url: `${API}/admin/reports/${report.data._id}`, as: moderator, payload: { action: 'hide', note: 'Spam' } });
    expect(hide.statusCode).toBe(200);
    expect((await get(`/videos/${video.id}`)).statusCode).toBe(404);
    expect(await feedIds()).not.toContain(video.id);
  });

  it('a scheduled video published when its time comes', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const publishAt = Date.now() + 3_600_000;
    const res = await t.call({
      method: 'PATCH',
      url: `${API}/videos/${video.id}`,
      as: owner,
      payload: await multipart({ publishAt: new Date(publishAt).toISOString() }),
    });
    expect(res.statusCode).toBe(200);
    expect(await feedIds()).not.toContain(video.id);
    await primed('/videos/');
    // The job's handler, as a worker runs it when the time has come.
    const queue = new LocalQueue({ db: t.ctx.db, dialect: t.ctx.dialect, logger: silent });
    const publishing = new ScheduledPublishing({
      videos: new ScheduledPublishingRepository(t.ctx.db),
      queue,
      logger: silent,
      changes: t.ctx.answers,
      now: () => publishAt + 1,
    });
    expect(await publishing.publish({ videoId: video.id, publishAt })).toBe('published');
    expect(await feedIds()).toContain(video.id);
  });

  it('but a counted view does not: view counts may lag by up to the TTL', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    await primed(`/videos/${video.id}`);
    expect((await t.call({ method: 'PATCH', url: `${API}/videos/increment-views/${video.id}` })).data.views).toBe(1);
    const page = await get(`/videos/${video.id}`);
    expect(page.headers['x-cache']).toBe('hit');
    expect(page.data.views).toBe(0);
  });
});

describe('around the cache', () => {
  it('keeps CORS per request: a kept answer gets the allow-origin of its own caller only', async () => {
    const app = await createTestApp({ env: { ALLOWED_ORIGINS: 'https://app.example.com' } });
    try {
      const ask = (origin: string) => app.call({ method: 'GET', url: `${API}/videos/trending`, headers: { origin } });
      expect((await ask('https://app.example.com')).headers['access-control-allow-origin']).toBe('https://app.example.com');
      const other = await ask('https://evil.example.net');
      expect(other.headers['x-cache']).toBe('hit');
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      const allowed = await ask('https://app.example.com');
      expect(allowed.headers['x-cache']).toBe('hit');
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
    } finally {
      await app.close();
    }
  });

  it('keeps rate limits: kept answers count against them too', async () => {
    const app = await createTestApp({ env: { RATE_LIMIT_GENERAL_PER_MINUTE: '3' } });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await app.call({ method: 'GET', url: `${API}/videos/` })).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await app.close();
    }
  });

  it('is off with ANSWER_CACHE=false', async () => {
    const app = await createTestApp({ env: { ANSWER_CACHE: 'false' } });
    try {
      await app.call({ method: 'GET', url: `${API}/videos/` });
      const again = await app.call({ method: 'GET', url: `${API}/videos/` });
      expect(again.statusCode).toBe(200);
      expect(again.headers['x-cache']).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
