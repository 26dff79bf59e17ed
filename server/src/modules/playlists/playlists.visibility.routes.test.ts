import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeVideos, MISSING_ID, seedVideo } from '../../../test/support/seed.js';
import { signUpAs } from '../../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

let t: TestApp;
let owner: SignedIn;
let other: SignedIn;
let uploader: SignedIn;
let moderator: SignedIn;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  [owner, other, uploader] = await Promise.all([t.signUp(), t.signUp(), t.signUp()]);
  moderator = await signUpAs(t, 'moderator');
  admin = await signUpAs(t, 'admin');
});
afterAll(() => t?.close());

async function createPlaylist(as: SignedIn, name = 'Shared mix') {
  const res = await t.call({ method: 'POST', url: '/api/v1/playlist/', payload: { name, description: 'For everyone' }, as });
  expect(res.statusCode).toBe(201);
  return res.data._id as string;
}
const setVisibility = (id: string, payload: object, as?: SignedIn) => t.call({ method: 'PATCH', url: `/api/v1/playlist/${id}`, payload, as });
const read = (id: string, as?: SignedIn) => t.call({ method: 'GET', url: `/api/v1/playlist/${id}`, as });
const stored = async (id: string) => await t.ctx.db.selectFrom('playlists').select(['visibility', 'name']).where('id', '=', id).executeTakeFirstOrThrow();

describe('PATCH /playlist/:id with visibility', () => {
  it('a playlist starts private; the owner alone changes it, bare or inside updatedPlaylist, with or without other fields', async () => {
    const id = await createPlaylist(owner);
    expect(await stored(id)).toEqual({ visibility: 'private', name: 'Shared mix' });
    expect((await setVisibility(id, { visibility: 'public' })).statusCode).toBe(401);
    for (const as of [other, moderator, admin]) expect((await setVisibility(id, { visibility: 'public' }, as)).statusCode).toBe(404);
    expect((await setVisibility(MISSING_ID, { visibility: 'public' }, owner)).statusCode).toBe(404);
    expect((await stored(id)).visibility).toBe('private');

    const res = await setVisibility(id, { visibility: 'public' }, owner);
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ _id: id, visibility: 'public', name: 'Shared mix' });
    const wrapped = await setVisibility(id, { updatedPlaylist: { visibility: 'unlisted', name: 'Renamed mix' } }, owner);
    expect(wrapped.data).toMatchObject({ visibility: 'unlisted', name: 'Renamed mix', description: 'For everyone' });
    expect(await stored(id)).toEqual({ visibility: 'unlisted', name: 'Renamed mix' });
  });

  it('refuses an unknown visibility with a 400 naming the field, and changes nothing', async () => {
    const id = await createPlaylist(owner);
    for (const visibility of ['everyone', '', 1, null, 'PUBLIC']) {
      const res = await setVisibility(id, { visibility, name: 'Not applied' }, owner);
      expect(res.statusCode).toBe(400);
      expect(res.data.errors.map((e: { path: string }) => e.path)).toContain('visibility');
    }
    expect(await stored(id)).toEqual({ visibility: 'private', name: 'Shared mix' });
  });
});

describe('GET /playlist/:id by visibility', () => {
  it('others read a public or unlisted playlist, signed in or not; private is 401 signed out and 404 for everyone else but the owner', async () => {
    const id = await createPlaylist(owner);
    const video = await seedVideo(t.ctx, uploader.id, { title: 'Shared one' });
    expect((await t.call({ method: 'PATCH', url: `/api/v1/playlist/add/${video.id}/${id}`, as: owner })).statusCode).toBe(200);

    expect((await read(id)).statusCode).toBe(401);
    for (const as of [other, moderator, admin]) expect((await read(id, as)).statusCode).toBe(404);
    expect((await read(id, owner)).statusCode).toBe(200);

    for (const visibility of ['public', 'unlisted'] as const) {
      await setVisibility(id, { visibility }, owner);
      for (const as of [undefined, other, moderator, admin, owner]) {
        const res = await read(id, as);
        expect(res.statusCode).toBe(200);
        expect(res.data).toMatchObject({
          _id: id,
          visibility,
          videosCount: 1,
          videos: [{ _id: video.id, title: 'Shared one' }],
          ownerProfile: { _id: owner.id, username: owner.username },
          thumbnail: { url: t.ctx.storage.url(video.thumbnail_key) },
        });
      }
    }
    // A missing id stays 401 signed out (nothing told apart from a private one) and 404 signed in; a malformed one is 400.
    expect((await read(MISSING_ID)).statusCode).toBe(401);
    expect((await read(MISSING_ID, other)).statusCode).toBe(404);
    expect((await read('no%20way')).statusCode).toBe(400);
  });

  it('shows each caller only the videos they may watch, with counts to match', async () => {
    const id = await createPlaylist(owner);
    const shown = await seedVideo(t.ctx, uploader.id, { title: 'Everyone' });
    const ownersDraft = await seedVideo(t.ctx, owner.id, { title: 'Owner draft', visibility: 'private' });
    const othersDraft = await seedVideo(t.ctx, other.id, { title: 'Other draft' });
    const unlisted = await seedVideo(t.ctx, uploader.id, { title: 'By link', visibility: 'unlisted' });
    for (const v of [ownersDraft, shown, othersDraft, unlisted]) {
      expect((await t.call({ method: 'PATCH', url: `/api/v1/playlist/add/${v.id}/${id}`, as: owner })).statusCode).toBe(200);
    }
    // The other user's video goes private after it was added: they still see it, nobody else does.
    await changeVideos(t.ctx, [othersDraft.id], { visibility: 'private' });
    await setVisibility(id, { visibility: 'public' }, owner);

    const titles = async (as?: SignedIn) => {
      const res = await read(id, as);
      expect(res.data.videosCount).toBe(res.data.videos.length);
      return res.data.videos.map((v: { title: string }) => v.title);
    };
    expect(await titles(owner)).toEqual(['Owner draft', 'Everyone', 'By link']);
    expect(await titles(undefined)).toEqual(['Everyone', 'By link']);
    expect(await titles(other)).toEqual(['Everyone', 'Other draft', 'By link']);
    expect(await titles(moderator)).toEqual(['Everyone', 'By link']);
    expect(await titles(admin)).toEqual(['Owner draft', 'Everyone', 'Other draft', 'By link']);

    // The list of the owner's playlists agrees: ids, count and the first shown video's thumbnail.
    const listed = (await t.call({ method: 'GET', url: `/api/v1/playlist/user/${owner.id}` })).data.find((p: { _id: string }) => p._id === id);
    expect(listed).toMatchObject({ videos: [shown.id, unlisted.id], videosCount: 2, thumbnail: { url: t.ctx.storage.url(shown.thumbnail_key) } });
    const ownView = (await t.call({ method: 'GET', url: `/api/v1/playlist/user/${owner.id}`, as: owner })).data.find((p: { _id: string }) => p._id === id);
    expect(ownView).toMatchObject({ videosCount: 3, thumbnail: { url: t.ctx.storage.url(ownersDraft.thumbnail_key) } });
  });
});

describe('GET /playlist/user/:userId by visibility', () => {
  it('lists unlisted and private playlists to the owner only', async () => {
    const person = await t.signUp();
    // A few milliseconds apart: the list is newest first, and two made in the same millisecond have no order of their own.
    const made = async (name: string) => {
      const id = await createPlaylist(person, name);
      await new Promise((r) => setTimeout(r, 5));
      return id;
    };
    const ids = { public: await made('Out'), unlisted: await made('Link'), private: await made('Mine') };
    await setVisibility(ids.public, { visibility: 'public' }, person);
    await setVisibility(ids.unlisted, { visibility: 'unlisted' }, person);
    const names = async (as?: SignedIn) =>
      (await t.call({ method: 'GET', url: `/api/v1/playlist/user/${person.id}`, as })).data.map((p: { name: string }) => p.name);
    expect(await names(person)).toEqual(['Mine', 'Link', 'Out']);
    for (const as of [undefined, other, moderator, admin]) expect(await names(as)).toEqual(['Out']);
  });
});
