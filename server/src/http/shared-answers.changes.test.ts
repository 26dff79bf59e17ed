import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countStatements, fullPathApp } from '../../test/support/full-path.js';
import { seedVideo } from '../../test/support/seed.js';
import { createTestApp, multipart, type SignedIn, type TestApp } from '../../test/support/test-app.js';

// What a viewer changes shows at once, to them and to others, when their answers are made of the
// kept public answer: public changes drop it, and their own fields are looked up on every request.
const API = '/api/v1';

let t: TestApp;
let full: Awaited<ReturnType<typeof fullPathApp>>;
let owner: SignedIn;
let fan: SignedIn;
let other: SignedIn;
let videoId: string;

beforeAll(async () => {
  t = await createTestApp();
  full = await fullPathApp(t);
  [owner, fan, other] = [await t.signUp(), await t.signUp(), await t.signUp()];
  videoId = (await seedVideo(t.ctx, owner.id, { title: 'Before' })).id;
}, 60_000);
afterAll(async () => {
  await full?.close();
  await t?.close();
});

const page = (as: SignedIn) => t.call({ method: 'GET', url: `${API}/videos/${videoId}`, as });
const card = async (as: SignedIn) => (await t.call({ method: 'GET', url: `${API}/videos/`, as })).data.videos.find((v: { _id: string }) => v._id === videoId);

/** Every viewer's answer, shared, is the one the full path makes for them now. */
async function sameAsFullPath(...urls: string[]) {
  for (const url of urls)
    for (const viewer of [owner, fan, other]) {
      const shared = await t.call({ method: 'GET', url, as: viewer });
      expect(JSON.parse(shared.body)).toEqual((await full.get(url, viewer)).json);
    }
}

/** Kept for signed-out visitors, so the next signed-in reads share it. */
const keep = (...urls: string[]) => Promise.all(urls.map((url) => t.call({ method: 'GET', url })));

describe('changes seen through shared answers', () => {
  it('a like shows at once: liked to its viewer, counted for everyone', async () => {
    await keep(`${API}/videos/${videoId}`);
    expect((await page(other)).headers['x-cache']).toBe('shared');
    await t.call({ method: 'POST', url: `${API}/likes/toggle/video/${videoId}`, as: fan });
    const fans = await page(fan);
    expect([fans.data.isLiked, fans.data.likesCount]).toEqual([true, 1]);
    const others = await page(other);
    expect([others.data.isLiked, others.data.likesCount]).toEqual([false, 1]);
    await sameAsFullPath(`${API}/videos/${videoId}`);
  });

  it('following a channel shows at once on the video page and the channel', async () => {
    await keep(`${API}/videos/${videoId}`, `${API}/users/channel/${owner.username}`);
    await t.call({ method: 'POST', url: `${API}/subscriptions/channel/${owner.id}`, as: fan });
    const fans = await page(fan);
    expect([fans.data.owner.isSubscribed, fans.data.owner.subscribersCount]).toEqual([true, 1]);
    const channel = await t.call({ method: 'GET', url: `${API}/users/channel/${owner.username}`, as: fan });
    expect([channel.data.isSubscribed, channel.data.subscribersCount]).toEqual([true, 1]);
    expect((await page(other)).data.owner.isSubscribed).toBe(false);
    expect((await page(owner)).data.owner.isSubscribed).toBe(false);
    await sameAsFullPath(`${API}/videos/${videoId}`, `${API}/users/channel/${owner.username}`);
  });

  it('watch progress shows at once to its viewer alone, though it drops no kept answer', async () => {
    await keep(`${API}/videos/${videoId}`, `${API}/videos/`);
    await t.call({ method: 'PATCH', url: `${API}/users/watch-history/${videoId}`, as: fan, payload: { position: 9 } });
    const fans = await page(fan);
    expect(fans.headers['x-cache']).toBe('shared');
    expect(fans.data.watchPosition).toBe(9);
    expect((await card(fan)).watchPosition).toBe(9);
    expect((await card(other)).watchPosition).toBeNull();
    await t.call({ method: 'PATCH', url: `${API}/users/watch-history/${videoId}`, as: fan, payload: { position: 11 } });
    expect((await page(fan)).data.watchPosition).toBe(11);
    expect((await card(fan)).watchPosition).toBe(11);
    await sameAsFullPath(`${API}/videos/${videoId}`, `${API}/videos/`);
  });

  it('a new comment and a like on it show at once to its author and to others', async () => {
    const url = `${API}/comments/${videoId}`;
    await keep(url);
    const added = await t.call({ method: 'POST', url, as: other, payload: { content: 'Hello there' } });
    expect(added.statusCode).toBe(201);
    for (const viewer of [other, fan])
      expect((await t.call({ method: 'GET', url, as: viewer })).data.comments.map((c: { content: string }) => c.content)).toEqual(['Hello there']);
    await t.call({ method: 'POST', url: `${API}/likes/toggle/comment/${added.data._id}`, as: fan });
    const fans = await t.call({ method: 'GET', url, as: fan });
    expect([fans.data.comments[0].isLiked, fans.data.comments[0].likesCount]).toEqual([true, 1]);
    expect((await t.call({ method: 'GET', url, as: other })).data.comments[0].isLiked).toBe(false);
    await sameAsFullPath(url, `${API}/videos/${videoId}`);
  });

  it('a title edit shows at once on the page and in lists, to the owner and to others', async () => {
    await keep(`${API}/videos/${videoId}`, `${API}/videos/`);
    const edit = await t.call({ method: 'PATCH', url: `${API}/videos/${videoId}`, as: owner, payload: await multipart({ title: 'After' }) });
    expect(edit.statusCode).toBe(200);
    for (const viewer of [owner, fan, other]) {
      expect((await page(viewer)).data.title).toBe('After');
      expect((await card(viewer)).title).toBe('After');
    }
    await sameAsFullPath(`${API}/videos/${videoId}`, `${API}/videos/`, `${API}/videos/?userId=${owner.id}`);
  });
});

describe('SQL statements per signed-in read', () => {
  it('one for the viewer, once the public answer is kept', async () => {
    const urls = {
      home: `${API}/videos/`,
      video: `${API}/videos/${videoId}`,
      comments: `${API}/comments/${videoId}`,
      search: `${API}/videos/?query=after`,
      channel: `${API}/users/channel/${owner.username}`,
    };
    const figures: Record<string, { full: number; shared: number }> = {};
    for (const [name, url] of Object.entries(urls)) {
      await page(fan);
      const fullCount = await countStatements(t, () => full.get(url, fan));
      await keep(url);
      let answer: Awaited<ReturnType<TestApp['call']>> | undefined;
      const sharedCount = await countStatements(t, async () => {
        answer = await t.call({ method: 'GET', url, as: fan });
      });
      expect(answer?.headers['x-cache']).toBe('shared');
      figures[name] = { full: fullCount, shared: sharedCount };
    }
    console.log('statements per signed-in read', JSON.stringify(figures));
    for (const { full: before, shared } of Object.values(figures)) {
      expect(shared).toBe(1);
      expect(before).toBeGreaterThan(1);
    }
    // The same for whoever may read them: none at all.
    for (const url of [`${API}/likes/count/${videoId}?contentType=video`, `${API}/instance`]) {
      await keep(url);
      expect(await countStatements(t, () => t.call({ method: 'GET', url, as: fan }))).toBe(0);
    }
  });
});
