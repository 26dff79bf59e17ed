import { Follow, generateCryptoKeyPair, signRequest } from '@fedify/fedify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffCallers } from '../../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { domainsOf } from './blocks.js';

const API = '/api/v1';
const ORIGIN = 'http://reelhouse.test';
let t: TestApp;
let staff: Awaited<ReturnType<typeof staffCallers>>;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: ORIGIN } });
  staff = await staffCallers(t);
});
afterAll(async () => {
  await t?.close();
});

const list = (as?: SignedIn) => t.call({ method: 'GET', url: `${API}/admin/federation/blocks`, as });
const block = (as: SignedIn | undefined, domain: unknown) => t.call({ method: 'POST', url: `${API}/admin/federation/blocks`, payload: { domain }, as });
const unblock = (as: SignedIn | undefined, domain: string) =>
  t.call({ method: 'DELETE', url: `${API}/admin/federation/blocks/${encodeURIComponent(domain)}`, as });
const auditOf = (domain: string) =>
  t.ctx.db
    .selectFrom('audit_log')
    .select(['action', 'actor_id'])
    .where('target_type', '=', 'domain')
    .where('target_id', '=', domain)
    .orderBy('created_at')
    .execute();
const follower = (channelId: string, actor: string) =>
  t.ctx.db
    .insertInto('federation_followers')
    .values({ channel_id: channelId, actor_id: actor, inbox: `${actor}/inbox`, shared_inbox: null, follow_id: null, created_at: Date.now() })
    .execute();
const followersOf = async (channelId: string) =>
  (await t.ctx.db.selectFrom('federation_followers').select('actor_id').where('channel_id', '=', channelId).orderBy('actor_id').execute()).map(
    (r) => r.actor_id,
  );

describe('domainsOf', () => {
  it('names a host, its port-less self and every parent domain, never a bare top-level label', () => {
    expect(domainsOf('a.b.Example.com:8443')).toEqual(['a.b.example.com:8443', 'a.b.example.com', 'b.example.com', 'example.com']);
    expect(domainsOf('localhost')).toEqual(['localhost']);
  });
});

describe('GET, POST and DELETE /admin/federation/blocks', () => {
  it('is for admins only: signed out 401, users, moderators and the channel owner 403, and nothing changes', async () => {
    for (const [who, code] of [
      [undefined, 401],
      [staff.user, 403],
      [staff.moderator, 403],
    ] as const) {
      expect((await list(who)).statusCode).toBe(code);
      expect((await block(who, 'spam.example')).statusCode).toBe(code);
      expect((await unblock(who, 'spam.example')).statusCode).toBe(code);
    }
    expect((await list(staff.admin)).data).toEqual({ blocks: [] });
    expect(await auditOf('spam.example')).toEqual([]);
  });

  it('refuses what is not a host name with a clear message, and changes nothing', async () => {
    for (const bad of ['', 'not a domain', 'https://x.example/path', '-bad.example', 'a..b', 42, 'x'.repeat(254)]) {
      const res = await block(staff.admin, bad);
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.message).toMatch(/domain/);
    }
    expect((await unblock(staff.admin, 'not a domain')).statusCode).toBe(400);
    expect((await list(staff.admin)).data).toEqual({ blocks: [] });
  });

  it('blocks a domain (lower-cased), forgets its followers and subdomains, lists it, and says 409 the second time', async () => {
    const owner = await t.signUp();
    for (const actor of [
      'https://spam.example/users/a',
      'https://video.spam.example:8443/users/b',
      'https://notspam.example/users/c',
      'https://kept.example/users/d',
    ]) {
      await follower(owner.id, actor);
    }
    const res = await block(staff.admin, ' Spam.Example ');
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({ domain: 'spam.example', blockedBy: staff.admin.id });
    expect(await followersOf(owner.id)).toEqual(['https://kept.example/users/d', 'https://notspam.example/users/c']);
    expect((await list(staff.admin)).data.blocks).toEqual([{ domain: 'spam.example', blockedBy: staff.admin.id, createdAt: res.data.createdAt }]);

    const again = await block(staff.admin, 'spam.example');
    expect(again.statusCode).toBe(409);
    expect(again.message).toBe('This domain is already blocked');
    expect(await auditOf('spam.example')).toEqual([{ action: 'federation.block', actor_id: staff.admin.id }]);

    // A follow from there is not kept, whoever asks.
    expect(
      await t.services.federation!.service.addFollower(owner.id, {
        actorId: 'https://spam.example/users/e',
        inbox: 'https://spam.example/users/e/inbox',
        sharedInbox: null,
        followId: null,
      }),
    ).toBe(false);
    expect(await followersOf(owner.id)).not.toContain('https://spam.example/users/e');
  });

  it('refuses with 403 an activity signed by a key on a blocked server, before reading it', async () => {
    const owner = await t.signUp();
    await block(staff.admin, 'blocked.example');
    const key = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
    const actor = 'https://blocked.example/users/x';
    const follow = new Follow({ id: new URL(`${actor}#follow`), actor: new URL(actor), object: new URL(`${ORIGIN}/ap/channels/${owner.id}`) });
    const signed = await signRequest(
      new Request(`${ORIGIN}/ap/channels/${owner.id}/inbox`, {
        method: 'POST',
        headers: { 'content-type': 'application/activity+json' },
        body: JSON.stringify(await follow.toJsonLd()),
      }),
      key.privateKey,
      new URL(`${actor}#main-key`),
    );
    const headers = Object.fromEntries(signed.headers.entries());
    const res = await t.call({ method: 'POST', url: `/ap/channels/${owner.id}/inbox`, headers, payload: await signed.text() });
    expect(res.statusCode).toBe(403);
    expect(res.message).toBe('This server is blocked here');
    expect(await followersOf(owner.id)).toEqual([]);
  });

  it('unblocks (in the audit log), and says 404 for a domain that is not blocked', async () => {
    await block(staff.admin, 'forgiven.example');
    const res = await unblock(staff.admin, 'FORGIVEN.example');
    expect(res.statusCode).toBe(200);
    expect(res.message).toBe('Domain unblocked');
    expect((await list(staff.admin)).data.blocks.map((b: { domain: string }) => b.domain)).not.toContain('forgiven.example');
    expect(await auditOf('forgiven.example')).toEqual([
      { action: 'federation.block', actor_id: staff.admin.id },
      { action: 'federation.unblock', actor_id: staff.admin.id },
    ]);
    const missing = await unblock(staff.admin, 'forgiven.example');
    expect(missing.statusCode).toBe(404);
    expect(missing.message).toBe('Blocked domain not found');
  });

  it('is not served on a site that does not federate', async () => {
    const closed = await createTestApp();
    try {
      const admin = await staffCallers(closed);
      expect((await closed.call({ method: 'GET', url: `${API}/admin/federation/blocks`, as: admin.admin })).statusCode).toBe(404);
    } finally {
      await closed.close();
    }
  });
});
