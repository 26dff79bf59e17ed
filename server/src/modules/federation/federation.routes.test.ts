import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeVideos, seedVideo } from '../../../test/support/seed.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

const AP = { accept: 'application/activity+json' };
// inject() sends Host: localhost:80, so the site's public address is that.
const ORIGIN = 'http://localhost';

describe('federation documents of one site', () => {
  let t: TestApp;
  let owner: SignedIn;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: ORIGIN } });
    owner = await t.signUp({ fullName: 'Film Club' });
    for (const name of ['public', 'unlisted', 'private', 'scheduled', 'processing', 'hidden'] as const) {
      ids[name] = (await seedVideo(t.ctx, owner.id, { title: `A ${name} video`, description: 'Line one\nline <two>', duration: 123.4 })).id;
    }
    await changeVideos(t.ctx, [ids.unlisted!], { visibility: 'unlisted' });
    await changeVideos(t.ctx, [ids.private!], { visibility: 'private' });
    await changeVideos(t.ctx, [ids.scheduled!], { visibility: 'private', publish_at: Date.now() + 3600_000 });
    await changeVideos(t.ctx, [ids.processing!], { status: 'processing' });
    await changeVideos(t.ctx, [ids.hidden!], { hidden_at: Date.now(), hidden_reason: 'spam' });
  });
  afterAll(() => t?.close());

  it('finds a channel by WebFinger and answers its Group actor, with a key pair kept in the database', async () => {
    const finger = await t.call({ method: 'GET', url: `/.well-known/webfinger?resource=acct:${owner.username}@localhost` });
    expect(finger.statusCode).toBe(200);
    const self = JSON.parse(finger.body).links.find((l: { rel: string }) => l.rel === 'self');
    expect(self.href).toBe(`${ORIGIN}/ap/channels/${owner.id}`);

    const res = await t.call({ method: 'GET', url: `/ap/channels/${owner.id}`, headers: AP });
    expect(res.statusCode).toBe(200);
    const actor = JSON.parse(res.body);
    expect(actor).toMatchObject({
      type: 'Group',
      id: `${ORIGIN}/ap/channels/${owner.id}`,
      preferredUsername: owner.username,
      name: 'Film Club',
      url: `${ORIGIN}/channel/${owner.username}`,
      inbox: `${ORIGIN}/ap/channels/${owner.id}/inbox`,
      outbox: `${ORIGIN}/ap/channels/${owner.id}/outbox`,
      followers: `${ORIGIN}/ap/channels/${owner.id}/followers`,
      endpoints: { sharedInbox: `${ORIGIN}/ap/inbox` },
    });
    expect(actor.summary).toMatch(/^<p>Videos of Film Club on .+<\/p>$/);
    expect(actor.publicKey.publicKeyPem).toContain('BEGIN PUBLIC KEY');
    const stored = await t.ctx.db.selectFrom('federation_keys').selectAll().where('user_id', '=', owner.id).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.private_key)).toMatchObject({ kty: 'RSA' });
    // The same key on every later read.
    const again = JSON.parse((await t.call({ method: 'GET', url: `/ap/channels/${owner.id}`, headers: AP })).body);
    expect(again.publicKey.publicKeyPem).toBe(actor.publicKey.publicKeyPem);
  });

  it("gives the actor the channel's avatar as icon and banner as image, once it has them", async () => {
    const before = JSON.parse((await t.call({ method: 'GET', url: `/ap/channels/${owner.id}`, headers: AP })).body);
    expect(before.icon).toBeUndefined();
    await t.ctx.db.updateTable('users').set({ avatar_key: 'avatars/a.webp', cover_key: 'covers/c.webp' }).where('id', '=', owner.id).execute();
    // As a new avatar through the site says: kept actor documents are made afresh.
    await t.ctx.answers.changed();
    const actor = JSON.parse((await t.call({ method: 'GET', url: `/ap/channels/${owner.id}`, headers: AP })).body);
    expect(actor.icon).toEqual({ type: 'Image', url: `${ORIGIN}/media/avatars/a.webp`, mediaType: 'image/webp' });
    expect(actor.image).toEqual({ type: 'Image', url: `${ORIGIN}/media/covers/c.webp`, mediaType: 'image/webp' });
    await t.ctx.db.updateTable('users').set({ avatar_key: null, cover_key: null }).where('id', '=', owner.id).execute();
    await t.ctx.answers.changed();
  });

  it('answers 404 for a channel that does not exist or is banned', async () => {
    expect((await t.call({ method: 'GET', url: '/.well-known/webfinger?resource=acct:nobody@localhost' })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: '/ap/channels/nobody', headers: AP })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: '/ap/channels/nobody/outbox', headers: AP })).statusCode).toBe(404);
    const banned = await t.signUp();
    await t.ctx.db.updateTable('users').set({ banned_at: Date.now() }).where('id', '=', banned.id).execute();
    expect((await t.call({ method: 'GET', url: `/ap/channels/${banned.id}`, headers: AP })).statusCode).toBe(404);
  });

  it('lists only the public, published, ready videos in the outbox, as Create(Video)', async () => {
    const outbox = JSON.parse((await t.call({ method: 'GET', url: `/ap/channels/${owner.id}/outbox`, headers: AP })).body);
    expect(outbox).toMatchObject({ type: 'OrderedCollection', totalItems: 1 });
    const page = JSON.parse((await t.call({ method: 'GET', url: new URL(outbox.first).pathname + new URL(outbox.first).search, headers: AP })).body);
    expect(page.type).toBe('OrderedCollectionPage');
    const items = [page.orderedItems].flat();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ type: 'Create', actor: `${ORIGIN}/ap/channels/${owner.id}`, object: { type: 'Video', name: 'A public video' } });
  });

  it('pages the outbox twenty at a time, newest first', async () => {
    const busy = await t.signUp();
    for (let i = 0; i < 21; i++) await seedVideo(t.ctx, busy.id, { title: `Clip ${i}` });
    const local = (url: string) => new URL(url).pathname + new URL(url).search;
    const outbox = JSON.parse((await t.call({ method: 'GET', url: `/ap/channels/${busy.id}/outbox`, headers: AP })).body);
    expect(outbox.totalItems).toBe(21);
    const first = JSON.parse((await t.call({ method: 'GET', url: local(outbox.first), headers: AP })).body);
    expect(first.orderedItems).toHaveLength(20);
    expect(first.orderedItems[0].object.name).toBe('Clip 20');
    const second = JSON.parse((await t.call({ method: 'GET', url: local(first.next), headers: AP })).body);
    expect([second.orderedItems].flat().map((c: { object: { name: string } }) => c.object.name)).toEqual(['Clip 0']);
    expect(second.next).toBeUndefined();
    expect((await t.call({ method: 'GET', url: `/ap/channels/${busy.id}/outbox?cursor=nonsense`, headers: AP })).statusCode).toBe(404);
  });

  it('answers the Video object of a public video, and 404 for every video that must not leave the site', async () => {
    const res = await t.call({ method: 'GET', url: `/ap/videos/${ids.public}`, headers: AP });
    expect(res.statusCode).toBe(200);
    const video = JSON.parse(res.body);
    expect(video).toMatchObject({
      type: 'Video',
      id: `${ORIGIN}/ap/videos/${ids.public}`,
      name: 'A public video',
      content: '<p>Line one<br>line &lt;two&gt;</p>',
      duration: 'PT123S',
      attributedTo: `${ORIGIN}/ap/channels/${owner.id}`,
      icon: { url: `${ORIGIN}/media/videos/${ids.public}/thumbnail.webp` },
    });
    expect(video.url).toContainEqual(expect.objectContaining({ type: 'Link', mediaType: 'video/mp4', href: `${ORIGIN}/media/videos/${ids.public}/video.mp4` }));
    expect(video.url).toContainEqual(expect.objectContaining({ type: 'Link', mediaType: 'text/html', href: `${ORIGIN}/video/${ids.public}` }));
    for (const name of ['unlisted', 'private', 'scheduled', 'processing', 'hidden']) {
      expect((await t.call({ method: 'GET', url: `/ap/videos/${ids[name]}`, headers: AP })).statusCode, name).toBe(404);
    }
  });

  it('answers NodeInfo 2.1 with the software, protocol and counts', async () => {
    const links = JSON.parse((await t.call({ method: 'GET', url: '/.well-known/nodeinfo' })).body);
    expect(links.links[0].href).toBe(`${ORIGIN}/nodeinfo/2.1`);
    const info = JSON.parse((await t.call({ method: 'GET', url: '/nodeinfo/2.1' })).body);
    expect(info).toMatchObject({
      version: '2.1',
      software: { name: 'reelhouse' },
      protocols: ['activitypub'],
      usage: { users: { total: expect.any(Number) } },
    });
    // Listed videos only: every public one of these tests, none of the five kept back.
    const listed = await t.ctx.db.selectFrom('videos').select('id').where('listed', '=', 1).execute();
    expect(info.usage.localPosts).toBe(listed.length);
    expect(listed.map((v) => v.id)).toContain(ids.public);
    expect(listed.map((v) => v.id)).not.toContain(ids.unlisted);
    expect(info.software.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('keeps its addresses out of the OpenAPI document, which describes the API alone', async () => {
    const doc = JSON.parse((await t.call({ method: 'GET', url: '/api/docs/json' })).body);
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/ap/') || p.includes('well-known') || p.includes('nodeinfo'))).toEqual([]);
    expect(Object.keys(doc.paths).length).toBeGreaterThan(50);
  });

  it('refuses an activity whose signature is missing', async () => {
    const res = await t.call({
      method: 'POST',
      url: `/ap/channels/${owner.id}/inbox`,
      headers: { 'content-type': 'application/activity+json' },
      payload: JSON.stringify({
        '@context': 'https://www.w3.org/ns/activitystreams',
        id: 'https://elsewhere.example/follows/1',
        type: 'Follow',
        actor: 'https://elsewhere.example/users/mallory',
        object: `${ORIGIN}/ap/channels/${owner.id}`,
      }),
    });
    expect(res.statusCode).toBe(401);
    expect(await t.ctx.db.selectFrom('federation_followers').selectAll().execute()).toEqual([]);
  });
});

describe('a site with federation off', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    // With the web client built, unknown paths get its page: federation's must not.
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-web-'));
    await fs.writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Reelhouse</title>');
    t = await createTestApp({ env: { PUBLIC_URL: ORIGIN, FEDERATION: 'false', WEB_DIST: dist } });
  });
  afterAll(async () => {
    await t?.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it('serves none of it', async () => {
    const owner = await t.signUp();
    for (const url of [
      `/.well-known/webfinger?resource=acct:${owner.username}@localhost`,
      '/.well-known/nodeinfo',
      '/nodeinfo/2.1',
      `/ap/channels/${owner.id}`,
      '/ap/inbox',
    ]) {
      expect((await t.call({ method: 'GET', url, headers: AP })).statusCode, url).toBe(404);
      expect((await t.call({ method: 'GET', url })).statusCode, url).toBe(404);
    }
    expect((await t.call({ method: 'POST', url: `/ap/channels/${owner.id}/inbox`, payload: {} })).statusCode).toBe(404);
    expect(t.services.federation).toBeNull();
    // The web client still answers its own pages.
    expect((await t.call({ method: 'GET', url: `/channel/${owner.username}` })).body).toContain('<title>');
  });
});

describe("a channel's actor document, kept between changes", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: ORIGIN } });
  });
  afterAll(() => t?.close());

  it('is made once for the many servers that fetch it during a delivery, and made again after any public change', async () => {
    const owner = await t.signUp({ fullName: 'Before' });
    const actor = async () => JSON.parse((await t.call({ method: 'GET', url: `/ap/channels/${owner.id}`, headers: AP })).body).name;
    expect(await actor()).toBe('Before');
    // Written behind the site's back: the kept document still answers.
    await t.ctx.db.updateTable('users').set({ full_name: 'After' }).where('id', '=', owner.id).execute();
    expect(await actor()).toBe('Before');
    // Every real change says so, and the next fetch makes it afresh.
    await t.ctx.answers.changed();
    expect(await actor()).toBe('After');
  });
});

describe("one remote server's activities, limited per server", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: ORIGIN, FEDERATION_INBOX_PER_DOMAIN_PER_MINUTE: '2' } });
  });
  afterAll(() => t?.close());

  const post = (keyHost: string) =>
    t.call({
      method: 'POST',
      url: '/ap/inbox',
      headers: {
        'content-type': 'application/activity+json',
        signature: `keyId="https://${keyHost}/actor#main-key",algorithm="rsa-sha256",headers="(request-target) host date",signature="AAAA"`,
      },
      payload: JSON.stringify({ type: 'Like', actor: `https://${keyHost}/actor`, object: `${ORIGIN}/ap/videos/x` }),
    });

  it('answers 429 with Retry-After past the limit of the server that signed, and counts each server apart', async () => {
    // Unverifiable requests are refused (400 or 401) by the library, but they count: a flood is a flood.
    const refused = [400, 401];
    expect(refused).toContain((await post('flood.example')).statusCode);
    expect(refused).toContain((await post('flood.example')).statusCode);
    const third = await post('flood.example');
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(third.json()).toMatchObject({ statusCode: 429, success: false, data: null });
    expect(refused).toContain((await post('calm.example')).statusCode);
  });
});
