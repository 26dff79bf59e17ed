import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeVideos, MISSING_ID, seedVideo } from '../../../test/support/seed.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

let t: TestApp;
let owner: SignedIn;
let other: SignedIn;
let uploader: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  [owner, other, uploader] = await Promise.all([t.signUp(), t.signUp(), t.signUp()]);
});
afterAll(() => t?.close());

async function createPlaylist(as: SignedIn, name = 'Favourites', description = 'Things I like') {
  const res = await t.call({ method: 'POST', url: '/api/v1/playlist/', payload: { name, description }, as });
  expect(res.statusCode).toBe(201);
  return res.data._id as string;
}
const add = (videoId: string, playlistId: string, as?: SignedIn) => t.call({ method: 'PATCH', url: `/api/v1/playlist/add/${videoId}/${playlistId}`, as });
const remove = (videoId: string, playlistId: string, as?: SignedIn) => t.call({ method: 'PATCH', url: `/api/v1/playlist/remove/${videoId}/${playlistId}`, as });
const counter = async (id: string) =>
  (await t.ctx.db.selectFrom('playlists').select('videos_count').where('id', '=', id).executeTakeFirstOrThrow()).videos_count;

describe('POST /playlist/', () => {
  it('needs sign-in', async () => {
    expect((await t.call({ method: 'POST', url: '/api/v1/playlist/', payload: { name: 'a', description: 'b' } })).statusCode).toBe(401);
  });

  it('creates a trimmed playlist, with or without the trailing slash', async () => {
    const res = await t.call({ method: 'POST', url: '/api/v1/playlist/', payload: { name: '  Road trip ', description: ' Songs ' }, as: owner });
    expect(res.statusCode).toBe(201);
    expect(JSON.parse(res.body)).toMatchObject({ statusCode: 201, success: true });
    expect(res.data).toMatchObject({
      name: 'Road trip',
      description: 'Songs',
      owner: owner.id,
      visibility: 'private',
      videos: [],
      videosCount: 0,
      thumbnail: null,
    });
    expect(new Date(res.data.createdAt).toISOString()).toBe(res.data.createdAt);
    const bare = await t.call({ method: 'POST', url: '/api/v1/playlist', payload: { name: 'x', description: 'y' }, as: owner });
    expect(bare.statusCode).toBe(201);
  });

  it('rejects a missing, blank or too long name or description, naming every bad field', async () => {
    const cases: [unknown, string[]][] = [
      [{}, ['name', 'description']],
      [{ name: '   ', description: 'ok' }, ['name']],
      [{ name: 'x'.repeat(101), description: 'ok' }, ['name']],
      [{ name: 'ok', description: 'x'.repeat(1001) }, ['description']],
    ];
    for (const [payload, paths] of cases) {
      const res = await t.call({ method: 'POST', url: '/api/v1/playlist/', payload: payload as object, as: owner });
      expect(res.statusCode).toBe(400);
      expect(res.data.errors.map((e: { path: string }) => e.path).sort()).toEqual(paths.sort());
    }
  });
});

describe('GET /playlist/:id', () => {
  it('a private playlist is for the owner only: 401 signed out, 404 for others and for a missing id', async () => {
    const id = await createPlaylist(owner);
    expect((await t.call({ method: 'GET', url: `/api/v1/playlist/${id}` })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: `/api/v1/playlist/${id}`, as: other })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/v1/playlist/${MISSING_ID}`, as: owner })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: '/api/v1/playlist/no%20way', as: owner })).statusCode).toBe(400);
    const res = await t.call({ method: 'GET', url: `/api/v1/playlist/${id}`, as: owner });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ _id: id, name: 'Favourites', videos: [], videosCount: 0 });
  });

  it('lists the videos as cards in the order they were added, skipping ones the owner can no longer see', async () => {
    const id = await createPlaylist(owner);
    const [a, b, c] = [
      await seedVideo(t.ctx, uploader.id, { title: 'Zebra' }),
      await seedVideo(t.ctx, uploader.id, { title: 'Apple' }),
      await seedVideo(t.ctx, owner.id, { title: 'Mango' }),
    ];
    for (const v of [b, c, a]) expect((await add(v.id, id, owner)).statusCode).toBe(200);
    const res = await t.call({ method: 'GET', url: `/api/v1/playlist/${id}`, as: owner });
    expect(res.data.videos.map((v: { title: string }) => v.title)).toEqual(['Apple', 'Mango', 'Zebra']);
    expect(res.data.videos[0]).toMatchObject({
      _id: b.id,
      isPublished: true,
      status: 'ready',
      thumbnail: { url: t.ctx.storage.url(b.thumbnail_key) },
      owner: { _id: uploader.id, username: uploader.username },
    });
    expect(res.data.videosCount).toBe(3);
    // The uploader unpublishes Apple: the playlist's owner no longer sees it; their own hidden video stays.
    await changeVideos(t.ctx, [b.id, c.id], { visibility: 'private' });
    const after = await t.call({ method: 'GET', url: `/api/v1/playlist/${id}`, as: owner });
    expect(after.data.videos.map((v: { title: string }) => v.title)).toEqual(['Mango', 'Zebra']);
    expect(after.data.videosCount).toBe(2);
  });
});

describe('PATCH /playlist/:id', () => {
  it('updates name and/or description for the owner only, bare or wrapped in updatedPlaylist', async () => {
    const id = await createPlaylist(owner);
    const url = `/api/v1/playlist/${id}`;
    expect((await t.call({ method: 'PATCH', url, payload: { name: 'n' } })).statusCode).toBe(401);
    expect((await t.call({ method: 'PATCH', url, payload: { name: 'n' }, as: other })).statusCode).toBe(404);
    expect((await t.call({ method: 'PATCH', url: `/api/v1/playlist/${MISSING_ID}`, payload: { name: 'n' }, as: owner })).statusCode).toBe(404);
    const renamed = await t.call({ method: 'PATCH', url, payload: { name: ' Renamed ' }, as: owner });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.data).toMatchObject({ _id: id, name: 'Renamed', description: 'Things I like' });
    const wrapped = await t.call({ method: 'PATCH', url, payload: { updatedPlaylist: { description: 'New words' } }, as: owner });
    expect(wrapped.statusCode).toBe(200);
    expect(wrapped.data).toMatchObject({ name: 'Renamed', description: 'New words' });
    const detail = await t.call({ method: 'GET', url, as: owner });
    expect(detail.data).toMatchObject({ name: 'Renamed', description: 'New words' });
  });

  it("answers 400 'No update value provided.' when there is nothing to change", async () => {
    const id = await createPlaylist(owner);
    for (const payload of [{}, { updatedPlaylist: {} }, { unrelated: 1 }]) {
      const res = await t.call({ method: 'PATCH', url: `/api/v1/playlist/${id}`, payload, as: owner });
      expect(res.statusCode).toBe(400);
      expect(res.message).toBe('No update value provided.');
    }
    const blank = await t.call({ method: 'PATCH', url: `/api/v1/playlist/${id}`, payload: { name: '  ' }, as: owner });
    expect(blank.statusCode).toBe(400);
    expect(blank.data.errors[0].path).toBe('name');
  });
});

describe('DELETE /playlist/:id', () => {
  it('deletes for the owner only', async () => {
    const id = await createPlaylist(owner);
    const video = await seedVideo(t.ctx, uploader.id);
    await add(video.id, id, owner);
    const url = `/api/v1/playlist/${id}`;
    expect((await t.call({ method: 'DELETE', url })).statusCode).toBe(401);
    expect((await t.call({ method: 'DELETE', url, as: other })).statusCode).toBe(404);
    expect((await t.call({ method: 'DELETE', url: `/api/v1/playlist/${MISSING_ID}`, as: owner })).statusCode).toBe(404);
    const res = await t.call({ method: 'DELETE', url, as: owner });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ success: true });
    expect((await t.call({ method: 'GET', url, as: owner })).statusCode).toBe(404);
    const links = await t.ctx.db.selectFrom('playlist_videos').select('video_id').where('playlist_id', '=', id).execute();
    expect(links).toEqual([]);
  });
});

describe('PATCH /playlist/add/:videoId/:playlistId', () => {
  it("is for the playlist's owner, for videos they can see", async () => {
    const id = await createPlaylist(owner);
    const video = await seedVideo(t.ctx, uploader.id);
    const hidden = await seedVideo(t.ctx, uploader.id, { status: 'processing', progress: 10 });
    expect((await add(video.id, id)).statusCode).toBe(401);
    expect((await add(video.id, id, other)).statusCode).toBe(404);
    expect((await add(MISSING_ID, id, owner)).statusCode).toBe(404);
    expect((await add(video.id, MISSING_ID, owner)).statusCode).toBe(404);
    expect((await add(hidden.id, id, owner)).statusCode).toBe(404);
    expect((await add('!', id, owner)).statusCode).toBe(400);
    expect(await counter(id)).toBe(0);
    // The uploader may not add to someone else's playlist even their own hidden video.
    expect((await add(hidden.id, id, uploader)).statusCode).toBe(404);
  });

  it('appends in order, answers the playlist, and adding again is a no-op', async () => {
    const id = await createPlaylist(owner);
    const vs = [await seedVideo(t.ctx, uploader.id), await seedVideo(t.ctx, uploader.id), await seedVideo(t.ctx, owner.id, { visibility: 'private' })];
    const first = await add(vs[1]!.id, id, owner);
    expect(first.statusCode).toBe(200);
    expect(first.message).toBe('Video added to playlist successfully');
    expect(first.data).toMatchObject({ _id: id, videos: [vs[1]!.id], videosCount: 1 });
    await add(vs[0]!.id, id, owner);
    await add(vs[2]!.id, id, owner);
    const again = await add(vs[1]!.id, id, owner);
    expect(again.statusCode).toBe(200);
    expect(again.data.videos).toEqual([vs[1]!.id, vs[0]!.id, vs[2]!.id]);
    expect(await counter(id)).toBe(3);
    const rows = await t.ctx.db.selectFrom('playlist_videos').select('video_id').where('playlist_id', '=', id).execute();
    expect(rows).toHaveLength(3);
  });

  it('stays a single entry when the same video is added many times at once', async () => {
    const id = await createPlaylist(owner);
    const video = await seedVideo(t.ctx, uploader.id);
    const results = await Promise.all(Array.from({ length: 6 }, () => add(video.id, id, owner)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(await counter(id)).toBe(1);
    const rows = await t.ctx.db.selectFrom('playlist_videos').select('video_id').where('playlist_id', '=', id).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('PATCH /playlist/remove/:videoId/:playlistId', () => {
  it('removes for the owner, keeps the order of the rest, removing what is not there is a no-op, and a video that does not exist is a 404', async () => {
    const id = await createPlaylist(owner);
    const vs = [await seedVideo(t.ctx, uploader.id), await seedVideo(t.ctx, uploader.id), await seedVideo(t.ctx, uploader.id)];
    for (const v of vs) await add(v.id, id, owner);
    expect((await remove(vs[1]!.id, id)).statusCode).toBe(401);
    expect((await remove(vs[1]!.id, id, other)).statusCode).toBe(404);
    expect((await remove(vs[1]!.id, MISSING_ID, owner)).statusCode).toBe(404);
    expect((await remove('bad!', id, owner)).statusCode).toBe(400);
    const noVideo = await remove(MISSING_ID, id, owner);
    expect(noVideo.statusCode).toBe(404);
    expect(noVideo.json()).toEqual({ statusCode: 404, data: null, message: 'Video not found', success: false });
    const res = await remove(vs[1]!.id, id, owner);
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ videos: [vs[0]!.id, vs[2]!.id], videosCount: 2 });
    expect(await counter(id)).toBe(2);
    const again = await remove(vs[1]!.id, id, owner);
    expect(again.statusCode).toBe(200);
    expect(again.data.videos).toEqual([vs[0]!.id, vs[2]!.id]);
    const neverAdded = await seedVideo(t.ctx, uploader.id);
    expect((await remove(neverAdded.id, id, owner)).statusCode).toBe(200);
    expect(await counter(id)).toBe(2);
    // Re-adding puts it at the end.
    expect((await add(vs[1]!.id, id, owner)).data.videos).toEqual([vs[0]!.id, vs[2]!.id, vs[1]!.id]);
  });
});

describe('GET /playlist/user/:userId', () => {
  it("lists a user's playlists newest first, with video ids and counts: all to the owner, the public ones to anyone else", async () => {
    const person = await t.signUp();
    const older = await createPlaylist(person, 'Older', 'first');
    await new Promise((r) => setTimeout(r, 3));
    const newer = await createPlaylist(person, 'Newer', 'second');
    const v1 = await seedVideo(t.ctx, uploader.id);
    const draft = await seedVideo(t.ctx, person.id, { visibility: 'private' });
    await add(v1.id, newer, person);
    await add(draft.id, newer, person);

    const own = await t.call({ method: 'GET', url: `/api/v1/playlist/user/${person.id}`, as: person });
    expect(own.statusCode).toBe(200);
    expect(own.data.map((p: { _id: string }) => p._id)).toEqual([newer, older]);
    expect(own.data[0]).toMatchObject({ name: 'Newer', owner: person.id, videos: [v1.id, draft.id], videosCount: 2 });
    expect(own.data[1]).toMatchObject({ videos: [], videosCount: 0 });

    expect(own.data[0]).toMatchObject({ visibility: 'private', thumbnail: { url: expect.any(String) } });
    expect(own.data[1].thumbnail).toBeNull();

    // Others, signed in or not, see only public playlists, and in them not the owner's unpublished video.
    for (const as of [other, undefined]) {
      expect((await t.call({ method: 'GET', url: `/api/v1/playlist/user/${person.id}`, as })).data).toEqual([]);
    }
    expect((await t.call({ method: 'PATCH', url: `/api/v1/playlist/${newer}`, payload: { visibility: 'public' }, as: person })).statusCode).toBe(200);
    for (const as of [other, undefined]) {
      const res = await t.call({ method: 'GET', url: `/api/v1/playlist/user/${person.id}`, as });
      expect(res.statusCode).toBe(200);
      expect(res.data).toHaveLength(1);
      expect(res.data[0]).toMatchObject({ _id: newer, visibility: 'public', videos: [v1.id], videosCount: 1 });
    }
  });

  it('is 404 for a missing user and 400 for a malformed id; an empty list for a user without playlists', async () => {
    expect((await t.call({ method: 'GET', url: `/api/v1/playlist/user/${MISSING_ID}` })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: '/api/v1/playlist/user/%24%24%24' })).statusCode).toBe(400);
    const res = await t.call({ method: 'GET', url: `/api/v1/playlist/user/${other.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual([]);
  });
});
