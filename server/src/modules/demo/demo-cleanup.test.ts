import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, multipart, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

let t: TestApp;
let demo: SignedIn;
beforeAll(async () => {
  t = await createTestApp({ env: { DEMO_ACCOUNT: 'true', DEMO_EMAIL: 'demo@example.com', DEMO_PASSWORD: 'demo-pass-123', DEMO_CONTENT_TTL_HOURS: '1' } });
  const login = await t.call({
    method: 'POST',
    url: '/api/v1/users/login',
    headers: { 'x-return-tokens': 'true' },
    payload: { email: 'demo@example.com', password: 'demo-pass-123' },
  });
  demo = { id: login.data.user._id, accessToken: login.data.accessToken } as SignedIn;
});
afterAll(async () => {
  await t?.close();
});

describe('demo content clean-up', () => {
  it('keeps recent demo content and removes it once older than the configured time, counters and files included', async () => {
    const bob = await t.signUp();
    const form = async (as: SignedIn) =>
      t.call({
        method: 'POST',
        url: '/api/v1/videos/',
        as,
        payload: await multipart({ title: 'Clip', description: 'A clip' }, { videoFile: 'clip.mp4', thumbnail: 'image.png' }),
      });
    const bobVideo = (await form(bob)).data._id;
    const demoVideo = (await form(demo)).data._id;
    await t.call({ method: 'POST', url: `/api/v1/comments/${bobVideo}`, as: demo, payload: { content: 'demo was here' } });
    await t.call({ method: 'POST', url: `/api/v1/likes/toggle/video/${bobVideo}/`, as: demo });
    await t.call({ method: 'POST', url: `/api/v1/subscriptions/channel/${bob.id}`, as: demo });
    await t.call({ method: 'POST', url: '/api/v1/playlist/', as: demo, payload: { name: 'Demo list', description: 'x' } });
    await t.call({ method: 'PATCH', url: `/api/v1/users/watch-history/${bobVideo}`, as: demo });

    expect(await t.services.demoCleanup!.purge()).toEqual({ videos: 0, comments: 0, playlists: 0, likes: 0, subscriptions: 0 });

    const later = Date.now() + 2 * 3600_000;
    expect(await t.services.demoCleanup!.purge(later)).toEqual({ videos: 1, comments: 1, playlists: 1, likes: 1, subscriptions: 1 });
    expect(await t.ctx.storage.list(`videos/${demoVideo}/`)).toEqual([]);
    const video = await t.call({ method: 'GET', url: `/api/v1/videos/${bobVideo}`, as: bob });
    expect(video.data).toMatchObject({ likesCount: 0, commentsCount: 0 });
    expect(video.data.owner.subscribersCount).toBe(0);
    expect(await t.ctx.db.selectFrom('watch_history').selectAll().where('user_id', '=', demo.id).execute()).toEqual([]);
    // The account itself stays, and Bob's things are untouched.
    expect((await t.call({ method: 'GET', url: '/api/v1/users/user/current', as: demo })).statusCode).toBe(200);
    expect((await t.ctx.storage.list(`videos/${bobVideo}/`)).length).toBeGreaterThan(0);
  });
});
