import { Follow, generateCryptoKeyPair, Group, signRequest, Undo } from '@fedify/fedify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Site, startSite, waitFor } from './support/federation-site.js';
import type { SignedIn } from './support/test-app.js';

const AP = { accept: 'application/activity+json' };

describe('two sites federating over loopback', () => {
  let a: Site;
  let b: Site;
  let alice: SignedIn;
  let bob: SignedIn;
  let aliceActor: string;
  let bobActor: string;

  beforeAll(async () => {
    [a, b] = await Promise.all([startSite('127.0.0.2'), startSite('127.0.0.3')]);
    alice = await a.t.signUp({ fullName: 'Alice on A' });
    bob = await b.t.signUp({ fullName: 'Bob on B' });
    aliceActor = `${a.origin}/ap/channels/${alice.id}`;
    bobActor = `${b.origin}/ap/channels/${bob.id}`;
  });
  afterAll(async () => {
    await Promise.all([a?.t.close(), b?.t.close()]);
  });

  it("finds a channel of B by WebFinger, and A's library reads its actor document", async () => {
    const finger = await fetch(`${b.origin}/.well-known/webfinger?resource=${encodeURIComponent(`acct:${bob.username}@${b.host}`)}`);
    expect(finger.status).toBe(200);
    const links = ((await finger.json()) as { links: { rel: string; href: string }[] }).links;
    expect(links.find((l) => l.rel === 'self')?.href).toBe(bobActor);

    const ctx = a.federation.activityPub.createContext(new URL(a.origin));
    const actor = await ctx.lookupObject(bobActor);
    expect(actor).toBeInstanceOf(Group);
    const group = actor as Group;
    expect(group.preferredUsername).toBe(bob.username);
    expect(group.name?.toString()).toBe('Bob on B');
    expect(group.inboxId?.href).toBe(`${bobActor}/inbox`);
    expect((await group.getPublicKey())?.id?.href).toMatch(new RegExp(`^${bobActor}#`));
  });

  it('delivers a signed Follow from a channel of A, which B records and accepts, and A learns of the Accept', async () => {
    const followId = await a.federation.follows.follow(alice.id, bobActor);
    const follower = await waitFor('B to record the follower', () =>
      b.t.ctx.db.selectFrom('federation_followers').selectAll().where('channel_id', '=', bob.id).executeTakeFirst(),
    );
    expect(follower).toMatchObject({ actor_id: aliceActor, inbox: `${aliceActor}/inbox`, shared_inbox: `${a.origin}/ap/inbox`, follow_id: followId });

    const collection = (await (await fetch(`${bobActor}/followers`, { headers: AP })).json()) as { totalItems: number; first: string };
    expect(collection.totalItems).toBe(1);
    const page = (await (await fetch(collection.first, { headers: AP })).json()) as { orderedItems: string | string[] };
    expect([page.orderedItems].flat()).toEqual([aliceActor]);

    const sent = await waitFor('the Accept to reach A', async () => {
      const rows = await a.federation.service.following(alice.id);
      return rows.find((r) => r.actor_id === bobActor && r.accepted_at !== null);
    });
    expect(sent.follow_id).toBe(followId);
    // Both went through each site's own job queue: A's Follow, B's Accept.
    for (const site of [a, b]) {
      const jobs = await site.t.ctx.db.selectFrom('jobs').select(['status']).where('name', '=', 'federation.message').execute();
      expect(jobs.length).toBeGreaterThan(0);
      expect(jobs.every((j) => j.status === 'done')).toBe(true);
    }
  });

  it('removes the follower when A undoes the Follow', async () => {
    await a.federation.follows.unfollow(alice.id, bobActor);
    await waitFor('B to forget the follower', async () => {
      const rows = await b.t.ctx.db.selectFrom('federation_followers').selectAll().where('channel_id', '=', bob.id).execute();
      return rows.length === 0;
    });
    expect(await a.federation.service.following(alice.id)).toEqual([]);
    const collection = (await (await fetch(`${bobActor}/followers`, { headers: AP })).json()) as { totalItems: number };
    expect(collection.totalItems).toBe(0);
  });

  it('refuses with 401 a Follow whose signature is forged or missing, and records nothing', async () => {
    const follow = new Follow({ id: new URL(`${aliceActor}#forged`), actor: new URL(aliceActor), object: new URL(bobActor) });
    const body = JSON.stringify(await follow.toJsonLd());
    const request = () =>
      new Request(`${bobActor}/inbox`, { method: 'POST', headers: { 'content-type': 'application/activity+json', accept: 'application/activity+json' }, body });

    const missing = await fetch(request());
    expect(missing.status).toBe(401);

    // Signed with a key of the forger's own, under the name of Alice's real key: it does not verify against it.
    const forgerKey = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
    const forged = await signRequest(request(), forgerKey.privateKey, new URL(`${aliceActor}#main-key`));
    const res = await fetch(forged);
    expect(res.status).toBe(401);
    expect(await b.t.ctx.db.selectFrom('federation_followers').selectAll().where('channel_id', '=', bob.id).execute()).toEqual([]);
  });

  it("refuses with 401 a replayed old activity, and one signed with another actor's real key, and records nothing", async () => {
    const follow = (n: string) => new Follow({ id: new URL(`${aliceActor}#${n}`), actor: new URL(aliceActor), object: new URL(bobActor) });
    const request = async (n: string, headers: Record<string, string> = {}) =>
      new Request(`${bobActor}/inbox`, {
        method: 'POST',
        headers: { 'content-type': 'application/activity+json', ...headers },
        body: JSON.stringify(await follow(n).toJsonLd()),
      });
    const [aliceKey] = await a.federation.service.keyPairs(alice.id);
    // Alice's own key, but signed two hours ago: outside the window, whatever the signature says.
    const stale = await signRequest(
      await request('stale', { date: new Date(Date.now() - 2 * 3600_000).toUTCString() }),
      aliceKey!.privateKey,
      new URL(`${aliceActor}#main-key`),
    );
    expect((await fetch(stale)).status).toBe(401);
    // A real key that verifies, but another channel's: it cannot speak for Alice.
    const mallory = await a.t.signUp();
    const [malloryKey] = await a.federation.service.keyPairs(mallory.id);
    const borrowed = await signRequest(await request('borrowed'), malloryKey!.privateKey, new URL(`${a.origin}/ap/channels/${mallory.id}#main-key`));
    expect((await fetch(borrowed)).status).toBe(401);
    expect(await b.t.ctx.db.selectFrom('federation_followers').selectAll().where('channel_id', '=', bob.id).execute()).toEqual([]);
  });

  it('accepts a correctly signed activity, and one from a private address only where that is allowed', async () => {
    const c = await startSite('127.0.0.4', false);
    try {
      const carol = await c.t.signUp();
      const [key] = await a.federation.service.keyPairs(alice.id);
      const signedFollow = async (target: string, n: number) => {
        const follow = new Follow({ id: new URL(`${aliceActor}#signed-${n}`), actor: new URL(aliceActor), object: new URL(target) });
        const request = new Request(`${target}/inbox`, {
          method: 'POST',
          headers: { 'content-type': 'application/activity+json' },
          body: JSON.stringify(await follow.toJsonLd()),
        });
        return fetch(await signRequest(request, key!.privateKey, new URL(`${aliceActor}#main-key`)));
      };
      // Signed with Alice's real key: B, which lets loopback addresses federate, fetches it and takes the Follow.
      expect((await signedFollow(bobActor, 1)).status).toBe(202);
      await waitFor('B to record the follower', () =>
        b.t.ctx.db.selectFrom('federation_followers').selectAll().where('channel_id', '=', bob.id).where('actor_id', '=', aliceActor).executeTakeFirst(),
      );
      // An Undo naming that Follow by its id alone removes it.
      const undo = new Undo({ id: new URL(`${aliceActor}#undo-1`), actor: new URL(aliceActor), object: new URL(`${aliceActor}#signed-1`) });
      const undoRequest = new Request(`${bobActor}/inbox`, {
        method: 'POST',
        headers: { 'content-type': 'application/activity+json' },
        body: JSON.stringify(await undo.toJsonLd()),
      });
      expect((await fetch(await signRequest(undoRequest, key!.privateKey, new URL(`${aliceActor}#main-key`)))).status).toBe(202);
      await waitFor('B to forget the follower', async () => {
        const rows = await b.t.ctx.db.selectFrom('federation_followers').selectAll().where('channel_id', '=', bob.id).execute();
        return rows.length === 0;
      });
      // C does not: it will not fetch the key from A's loopback address, so nothing verifies it.
      expect((await signedFollow(`${c.origin}/ap/channels/${carol.id}`, 2)).status).toBe(401);
      expect(await c.t.ctx.db.selectFrom('federation_followers').selectAll().execute()).toEqual([]);
    } finally {
      await c.t.close();
    }
  });
});
