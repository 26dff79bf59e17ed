import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedVideo } from '../../test/support/seed.js';
import { createTestApp, multipart, type SignedIn, type TestApp } from '../../test/support/test-app.js';

// Signed-in lists made of public data alone (the subscriptions feed, the followed channels) are kept
// per viewer: a viewer's second ask is served from the cache, and never anyone else's.
const API = '/api/v1';

let t: TestApp;
let channel: SignedIn;
let other: SignedIn;
let viewer: SignedIn;
let neighbour: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  [channel, other, viewer, neighbour] = [await t.signUp(), await t.signUp(), await t.signUp(), await t.signUp()];
  await t.call({ method: 'POST', url: `${API}/subscriptions/channel/${channel.id}`, as: viewer });
  await t.call({ method: 'POST', url: `${API}/subscriptions/channel/${other.id}`, as: neighbour });
}, 60_000);
afterAll(() => t.close());

const feed = (as: SignedIn, query = '') => t.call({ method: 'GET', url: `${API}/feed/subscriptions${query}`, as });
const titles = (res: { data: { videos: { title: string }[] } }) => res.data.videos.map((v) => v.title);

describe("a viewer's subscriptions feed", () => {
  it('is kept for that viewer alone', async () => {
    await seedVideo(t.ctx, channel.id, { title: 'From the followed channel' });
    await seedVideo(t.ctx, other.id, { title: 'From the other channel' });
    const first = await feed(viewer);
    expect(first.headers['x-cache']).toBe('miss');
    const second = await feed(viewer, '?pageNumber=1');
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.body).toBe(first.body);
    expect(titles(second)).toEqual(['From the followed channel']);
    // Another viewer's ask of the same URL is their own.
    const theirs = await feed(neighbour);
    expect(theirs.headers['x-cache']).toBe('miss');
    expect(titles(theirs)).toEqual(['From the other channel']);
  });

  it('is made afresh once the viewer follows or leaves a channel, and once a followed channel uploads or edits', async () => {
    await feed(viewer);
    expect((await feed(viewer)).headers['x-cache']).toBe('hit');
    await t.call({ method: 'POST', url: `${API}/subscriptions/channel/${other.id}`, as: viewer });
    const following = await feed(viewer);
    expect(following.headers['x-cache']).toBe('miss');
    expect(titles(following)).toContain('From the other channel');

    const channels = await t.call({ method: 'GET', url: `${API}/subscriptions/user/channels`, as: viewer });
    expect(channels.data.channels.map((c: { _id: string }) => c._id).sort()).toEqual([channel.id, other.id].sort());
    expect((await t.call({ method: 'GET', url: `${API}/subscriptions/user/channels`, as: viewer })).headers['x-cache']).toBe('hit');
    await t.call({ method: 'POST', url: `${API}/subscriptions/channel/${other.id}`, as: viewer });
    expect(titles(await feed(viewer))).not.toContain('From the other channel');
    const left = await t.call({ method: 'GET', url: `${API}/subscriptions/user/channels`, as: viewer });
    expect(left.headers['x-cache']).toBe('miss');
    expect(left.data.channels.map((c: { _id: string }) => c._id)).toEqual([channel.id]);

    const video = await seedVideo(t.ctx, channel.id, { title: 'Before the edit' });
    await feed(viewer);
    expect((await feed(viewer)).headers['x-cache']).toBe('hit');
    const edit = await t.call({ method: 'PATCH', url: `${API}/videos/${video.id}`, as: channel, payload: await multipart({ title: 'After the edit' }) });
    expect(edit.statusCode).toBe(200);
    const edited = await feed(viewer);
    expect(edited.headers['x-cache']).toBe('miss');
    expect(titles(edited)).toContain('After the edit');
  });

  it('is never served signed out, with a bad token, or once the session is gone', async () => {
    await feed(viewer);
    expect((await feed(viewer)).headers['x-cache']).toBe('hit');
    expect((await t.call({ method: 'GET', url: `${API}/feed/subscriptions` })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: `${API}/feed/subscriptions`, headers: { authorization: 'Bearer forged' } })).statusCode).toBe(401);
    const session = await t.signUp();
    await t.call({ method: 'POST', url: `${API}/subscriptions/channel/${channel.id}`, as: session });
    await feed(session);
    expect((await feed(session)).headers['x-cache']).toBe('hit');
    expect((await t.call({ method: 'POST', url: `${API}/users/logout`, as: session })).statusCode).toBe(200);
    expect((await feed(session)).statusCode).toBe(401);
  });
});
