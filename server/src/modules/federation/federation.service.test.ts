import { describe, expect, it } from 'vitest';
import type { ChannelRow, FederationRepository } from './federation.repository.js';
import { FederationService } from './federation.service.js';

const CHANNEL: ChannelRow = { id: 'u1', username: 'alice', full_name: 'Alice', avatar_key: null, cover_key: null, created_at: 1 };

/** The repository's few methods these rules touch, in memory. */
function fakeRows() {
  const keys = new Map<string, { public_key: string; private_key: string }>();
  const followers: { channel: string; actor_id: string; inbox: string; shared_inbox: string | null }[] = [];
  const following: { channel: string; actor_id: string; inbox: string; follow_id: string; accepted_at: number | null }[] = [];
  let keyInserts = 0;
  const rows = {
    channel: async (id: string) => (id === CHANNEL.id ? CHANNEL : undefined),
    channelIdByUsername: async (name: string) => (name === CHANNEL.username ? CHANNEL.id : name === 'banned' ? 'u2' : null),
    keys: async (id: string) => keys.get(id),
    insertKeysIfAbsent: async (id: string, k: { public_key: string; private_key: string }) => {
      keyInserts++;
      if (!keys.has(id)) keys.set(id, k);
    },
    addFollower: async (channel: string, f: { actor_id: string; inbox: string; shared_inbox: string | null }) => void followers.push({ channel, ...f }),
    addFollowing: async (channel: string, f: { actor_id: string; inbox: string; follow_id: string }) =>
      void following.push({ channel, ...f, accepted_at: null }),
    followingByFollowId: async (id: string) => {
      const f = following.find((r) => r.follow_id === id);
      return f && { channel_id: f.channel, actor_id: f.actor_id };
    },
    acceptFollowing: async (channel: string, actor: string, now: number) => {
      const f = following.find((r) => r.channel === channel && r.actor_id === actor);
      if (f) f.accepted_at = now;
      return !!f;
    },
  };
  return { rows: rows as unknown as FederationRepository, followers, following, keyInserts: () => keyInserts };
}

const privateHosts = async (url: string) => /\/\/(127\.|10\.|localhost)/.test(url);

describe('federation rules', () => {
  it('makes a channel its key pair once, and none for an account that is not a channel', async () => {
    const f = fakeRows();
    const s = new FederationService({ rows: f.rows, allowPrivateAddresses: false, isPrivateAddress: privateHosts });
    const [first] = await s.keyPairs('u1');
    const [again] = await s.keyPairs('u1');
    expect(first!.privateKey.type).toBe('private');
    expect(first!.publicKey.algorithm.name).toBe('RSASSA-PKCS1-v1_5');
    expect(f.keyInserts()).toBe(1);
    expect(await crypto.subtle.exportKey('jwk', again!.publicKey)).toEqual(await crypto.subtle.exportKey('jwk', first!.publicKey));
    expect(await s.keyPairs('nobody')).toEqual([]);
  });

  it('finds channels by username, and not banned or pending accounts', async () => {
    const s = new FederationService({ rows: fakeRows().rows, allowPrivateAddresses: false, isPrivateAddress: privateHosts });
    expect(await s.channelIdForUsername('alice')).toBe('u1');
    expect(await s.channelIdForUsername('banned')).toBeNull();
    expect(await s.channelIdForUsername('nobody')).toBeNull();
  });

  it('refuses followers whose inbox is on a private or loopback address, unless the settings allow them', async () => {
    const follower = { actorId: 'http://127.0.0.1/a', inbox: 'http://127.0.0.1/a/inbox', sharedInbox: 'http://10.0.0.1/inbox', followId: null };
    const strict = fakeRows();
    const s = new FederationService({ rows: strict.rows, allowPrivateAddresses: false, isPrivateAddress: privateHosts });
    expect(await s.addFollower('u1', follower)).toBe(false);
    expect(strict.followers).toEqual([]);
    // A public inbox with a private shared inbox: kept, without the shared inbox.
    expect(await s.addFollower('u1', { ...follower, inbox: 'https://peer.example/a/inbox' })).toBe(true);
    expect(strict.followers[0]).toMatchObject({ inbox: 'https://peer.example/a/inbox', shared_inbox: null });
    await expect(s.followSent('u1', { actorId: 'http://10.1.1.1/b', inbox: 'http://10.1.1.1/b/inbox', followId: 'x' })).rejects.toMatchObject({
      statusCode: 422,
      message: 'http://10.1.1.1/b/inbox is on a private or loopback address',
    });

    const open = fakeRows();
    const lenient = new FederationService({ rows: open.rows, allowPrivateAddresses: true, isPrivateAddress: privateHosts });
    expect(await lenient.addFollower('u1', follower)).toBe(true);
    expect(open.followers[0]).toMatchObject({ shared_inbox: 'http://10.0.0.1/inbox' });
    expect(await lenient.addFollower('nobody', follower)).toBe(false);
  });

  it('takes an Accept only from the channel that was followed', async () => {
    const f = fakeRows();
    const s = new FederationService({ rows: f.rows, allowPrivateAddresses: false, isPrivateAddress: privateHosts, now: () => 42 });
    await s.followSent('u1', { actorId: 'https://peer.example/b', inbox: 'https://peer.example/b/inbox', followId: 'https://me.example/f1' });
    expect(await s.followAccepted({ followId: 'https://me.example/f1', channelId: null, remoteActorId: 'https://evil.example/c' })).toBe(false);
    expect(f.following[0]!.accepted_at).toBeNull();
    expect(await s.followAccepted({ followId: 'https://me.example/f1', channelId: null, remoteActorId: 'https://peer.example/b' })).toBe(true);
    expect(f.following[0]!.accepted_at).toBe(42);
  });
});
