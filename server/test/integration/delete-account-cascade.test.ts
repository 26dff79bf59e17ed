import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, multipart, type SignedIn, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function upload(as: SignedIn, title: string): Promise<string> {
  const res = await t.call({
    method: 'POST',
    url: '/api/v1/videos/',
    as,
    payload: await multipart({ title, description: `${title} description` }, { videoFile: 'clip.mp4', thumbnail: 'image.png' }),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.data._id;
}

const TABLES = [
  'users',
  'sessions',
  'refresh_tokens',
  'videos',
  'comments',
  'likes',
  'subscriptions',
  'playlists',
  'playlist_videos',
  'watch_history',
  'view_events',
] as const;

describe('deleting an account', () => {
  it("leaves no row and no file behind, and other people's counters right", async () => {
    const alice = await t.signUp();
    const bob = await t.signUp();
    await t.call({ method: 'PATCH', url: '/api/v1/users/change-avatar', as: alice, payload: await multipart({}, { avatar: 'image.png' }) });
    await t.call({ method: 'PATCH', url: '/api/v1/users/change-cover-image', as: alice, payload: await multipart({}, { coverImage: 'image.jpg' }) });
    const aliceVideos = [await upload(alice, 'Alice one'), await upload(alice, 'Alice two')];
    const bobVideo = await upload(bob, 'Bob video');

    const call = (method: 'POST' | 'PATCH', url: string, as: SignedIn, payload?: object) => t.call({ method, url: `/api/v1${url}`, as, payload });
    const bobComment = (await call('POST', `/comments/${bobVideo}`, bob, { content: 'Bob on his own video' })).data._id;
    const aliceComment = (await call('POST', `/comments/${bobVideo}`, alice, { content: 'Alice on Bob' })).data._id;
    const bobOnAlice = (await call('POST', `/comments/${aliceVideos[0]}`, bob, { content: 'Bob on Alice' })).data._id;
    await call('POST', `/likes/toggle/video/${bobVideo}/`, alice);
    await call('POST', `/likes/toggle/comment/${bobComment}/`, alice);
    await call('POST', `/likes/toggle/video/${aliceVideos[0]}/`, bob);
    await call('POST', `/likes/toggle/comment/${bobOnAlice}/`, bob);
    await call('POST', `/subscriptions/channel/${bob.id}`, alice);
    await call('POST', `/subscriptions/channel/${alice.id}`, bob);
    const alicePlaylist = (await call('POST', '/playlist/', alice, { name: 'Mine', description: 'Alice list' })).data._id;
    await call('PATCH', `/playlist/add/${bobVideo}/${alicePlaylist}`, alice);
    const bobPlaylist = (await call('POST', '/playlist/', bob, { name: 'Bobs', description: 'Bob list' })).data._id;
    await call('PATCH', `/playlist/add/${aliceVideos[0]}/${bobPlaylist}`, bob);
    await call('PATCH', `/playlist/add/${bobVideo}/${bobPlaylist}`, bob);
    await call('PATCH', `/users/watch-history/${bobVideo}`, alice);
    await call('PATCH', `/users/watch-history/${aliceVideos[1]}`, bob);
    await call('PATCH', `/videos/increment-views/${bobVideo}`, alice);
    expect(await t.ctx.storage.list(`users/${alice.id}/`)).toHaveLength(2);

    const res = await t.call({ method: 'DELETE', url: '/api/v1/users/delete-account', as: alice });
    expect(res.statusCode).toBe(200);

    // No row anywhere mentions Alice, her videos or her comments.
    const gone = [alice.id, ...aliceVideos, aliceComment, bobOnAlice, alicePlaylist];
    for (const table of TABLES) {
      const rows = await t.ctx.db.selectFrom(table).selectAll().execute();
      const text = JSON.stringify(rows);
      for (const id of gone) expect(text.includes(id), `${table} still mentions ${id}`).toBe(false);
    }
    // No file of hers is left, and Bob's are untouched.
    expect(await t.ctx.storage.list(`users/${alice.id}/`)).toEqual([]);
    for (const id of aliceVideos) expect(await t.ctx.storage.list(`videos/${id}/`)).toEqual([]);
    expect((await t.ctx.storage.list(`videos/${bobVideo}/`)).length).toBeGreaterThan(0);
    expect(await fs.readdir(t.ctx.tmpDir).catch(() => [])).toEqual([]);

    expect(await t.ctx.db.selectFrom('view_events').selectAll().execute()).toEqual([]);
    // Counters on Bob's things no longer count what Alice did.
    const bobRow = await t.ctx.db.selectFrom('users').selectAll().where('id', '=', bob.id).executeTakeFirstOrThrow();
    expect(bobRow.subscribers_count).toBe(0);
    const video = await t.call({ method: 'GET', url: `/api/v1/videos/${bobVideo}`, as: bob });
    expect(video.data).toMatchObject({ likesCount: 0, commentsCount: 1 });
    const comment = await t.ctx.db.selectFrom('comments').selectAll().where('id', '=', bobComment).executeTakeFirstOrThrow();
    expect(comment.likes_count).toBe(0);
    const playlist = await t.call({ method: 'GET', url: `/api/v1/playlist/${bobPlaylist}`, as: bob });
    expect(playlist.data.videosCount).toBe(1);
    expect(playlist.data.videos.map((v: { _id: string }) => v._id)).toEqual([bobVideo]);
    // Bob's session still works.
    expect((await t.call({ method: 'GET', url: '/api/v1/users/user/current', as: bob })).statusCode).toBe(200);
  });
});
