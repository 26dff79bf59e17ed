import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullPathApp } from '../../test/support/full-path.js';
import { changeVideos, seedVideo } from '../../test/support/seed.js';
import { setBanned, signUpAs } from '../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../test/support/test-app.js';

// A signed-in viewer's answer made of the public one plus their own fields equals, field for field,
// the answer their request's own handler makes for them (the app with the answer cache off), for
// every kind of viewer and video, with the public answer kept beforehand or made on the way.
const API = '/api/v1';

let t: TestApp;
let full: Awaited<ReturnType<typeof fullPathApp>>;
let owner: SignedIn;
let admin: SignedIn;
let moderator: SignedIn;
let member: SignedIn;
let fan: SignedIn;
let unbanned: SignedIn;
const videos: Record<string, string> = {};
let commentId: string;

beforeAll(async () => {
  t = await createTestApp();
  full = await fullPathApp(t);
  [owner, member, fan, unbanned] = [await t.signUp(), await t.signUp(), await t.signUp(), await t.signUp()];
  [admin, moderator] = [await signUpAs(t, 'admin'), await signUpAs(t, 'moderator')];
  for (const [name, visibility] of [
    ['public', 'public'],
    ['unlisted', 'unlisted'],
    ['private', 'private'],
    ['takenDown', 'public'],
  ] as const)
    videos[name] = (await seedVideo(t.ctx, owner.id, { title: `Shared ${name} clip`, visibility })).id;
  await changeVideos(t.ctx, [videos.takenDown], { hidden_at: Date.now(), hidden_reason: 'spam' });
  videos.afterBan = (await seedVideo(t.ctx, unbanned.id, { title: 'Shared clip of a pardoned channel' })).id;
  const actor = { id: admin.id, username: admin.username };
  await setBanned(t.ctx.db, actor, unbanned.id, { reason: 'spam' }, t.ctx.answers);
  await setBanned(t.ctx.db, actor, unbanned.id, null, t.ctx.answers);

  // The fan likes, follows, watches and comments; a reply from the member, liked by the fan.
  await t.call({ method: 'POST', url: `${API}/likes/toggle/video/${videos.public}`, as: fan });
  await t.call({ method: 'POST', url: `${API}/subscriptions/channel/${owner.id}`, as: fan });
  await t.call({ method: 'PATCH', url: `${API}/users/watch-history/${videos.public}`, as: fan, payload: { position: 7 } });
  await t.call({ method: 'PATCH', url: `${API}/users/watch-history/${videos.unlisted}`, as: owner, payload: { position: 3 } });
  const comment = await t.call({ method: 'POST', url: `${API}/comments/${videos.public}`, as: fan, payload: { content: 'First!' } });
  commentId = comment.data._id;
  const reply = await t.call({ method: 'POST', url: `${API}/comments/${videos.public}`, as: member, payload: { content: 'Second', parentId: commentId } });
  await t.call({ method: 'POST', url: `${API}/likes/toggle/comment/${commentId}`, as: fan });
  await t.call({ method: 'POST', url: `${API}/likes/toggle/comment/${reply.data._id}`, as: owner });
}, 120_000);
afterAll(async () => {
  await full?.close();
  await t?.close();
});

const viewers = () => ({ owner, admin, moderator, member, fan, unbanned });

function urls(): string[] {
  const list = [
    `${API}/videos/`,
    `${API}/videos/?pageNumber=1&pageSize=2`,
    `${API}/videos/?query=shared`,
    `${API}/videos/?userId=${owner.id}`,
    `${API}/videos/?userId=${unbanned.id}`,
    `${API}/videos/trending`,
    `${API}/videos/${videos.public}/related`,
    `${API}/comments/${videos.public}`,
    `${API}/comments/${commentId}/replies`,
    `${API}/users/channel/${owner.username}`,
    `${API}/users/channel/${unbanned.username}`,
    `${API}/likes/count/${videos.public}?contentType=video`,
    `${API}/likes/count/${commentId}?contentType=comment`,
    `${API}/instance`,
  ];
  for (const id of Object.values(videos)) list.push(`${API}/videos/${id}`, `${API}/comments/${id}`, `${API}/likes/count/${id}?contentType=video`);
  return list;
}

async function compareAll(warm: boolean) {
  const seen = new Map<string, number>();
  for (const url of urls()) {
    for (const [name, viewer] of Object.entries(viewers())) {
      // Empty, or the public answer kept by a signed-out visitor first.
      await t.ctx.answers.changed();
      if (warm) await t.call({ method: 'GET', url });
      const shared = await t.call({ method: 'GET', url, as: viewer });
      const made = await full.get(url, viewer);
      expect({ url, name, status: shared.statusCode, json: JSON.parse(shared.body) }).toEqual({ url, name, status: made.status, json: made.json });
      const how = String(shared.headers['x-cache']);
      seen.set(how, (seen.get(how) ?? 0) + 1);
    }
  }
  return seen;
}

describe("a signed-in viewer's answer from the public one", () => {
  it('equals the full answer for owner, staff, others and a pardoned channel, with the public answer kept', async () => {
    const seen = await compareAll(true);
    expect(seen.get('shared')).toBeGreaterThan(50);
    // Their own channel's list, and the videos hidden from signed-out visitors, are made for them.
    expect(seen.get('undefined')).toBeGreaterThan(10);
    expect(seen.has('hit')).toBe(false);
  });

  it('equals the full answer when the public answer is made on the way, and keeps it for signed-out visitors', async () => {
    const seen = await compareAll(false);
    expect(seen.get('miss')).toBeGreaterThan(50);
    await t.ctx.answers.changed();
    const url = `${API}/videos/${videos.public}`;
    expect((await t.call({ method: 'GET', url, as: fan })).headers['x-cache']).toBe('miss');
    const signedOut = await t.call({ method: 'GET', url });
    expect(signedOut.headers['x-cache']).toBe('hit');
    const made = await full.get(url);
    expect(JSON.parse(signedOut.body)).toEqual(made.json);
    expect(signedOut.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it("shows each viewer their own fields and never another's", async () => {
    await t.ctx.answers.changed();
    const url = `${API}/videos/${videos.public}`;
    const fans = await t.call({ method: 'GET', url, as: fan });
    const members = await t.call({ method: 'GET', url, as: member });
    const owners = await t.call({ method: 'GET', url, as: owner });
    expect(members.headers['x-cache']).toBe('shared');
    expect([fans.data.isLiked, fans.data.owner.isSubscribed, fans.data.watchPosition]).toEqual([true, true, 7]);
    expect([members.data.isLiked, members.data.owner.isSubscribed, members.data.watchPosition]).toEqual([false, false, null]);
    expect([owners.data.isLiked, owners.data.owner.isSubscribed, owners.data.watchPosition]).toEqual([false, false, null]);
    const home = await t.call({ method: 'GET', url: `${API}/videos/`, as: fan });
    const card = home.data.videos.find((v: { _id: string }) => v._id === videos.public);
    expect(card.watchPosition).toBe(7);
    expect((await t.call({ method: 'GET', url: `${API}/videos/` })).data.videos[0]).not.toHaveProperty('watchPosition');
  });

  it('leaves a bad token and an owner opening their hidden videos to the full path', async () => {
    await t.call({ method: 'GET', url: `${API}/videos/${videos.public}` });
    const forged = await t.call({ method: 'GET', url: `${API}/videos/${videos.public}`, headers: { authorization: 'Bearer forged' } });
    expect(forged.headers['x-cache']).toBeUndefined();
    // Answered afresh as to a signed-out caller, and nothing kept.
    expect(forged.statusCode).toBe(200);
    const own = await t.call({ method: 'GET', url: `${API}/videos/${videos.takenDown}`, as: owner });
    expect(own.statusCode).toBe(200);
    expect(own.data.takedown.reason).toBe('spam');
    expect(own.headers['x-cache']).toBeUndefined();
    const strangers = await t.call({ method: 'GET', url: `${API}/videos/${videos.takenDown}`, as: member });
    expect(strangers.statusCode).toBe(404);
  });
});
