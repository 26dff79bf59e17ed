import { exportJwk, generateCryptoKeyPair, importJwk } from '@fedify/fedify';
import { unprocessable } from '../../http/errors.js';
import type { ChannelRow, FederatedVideoRow, FederationRepository, FollowerRow } from './federation.repository.js';

type KeyPair = Awaited<ReturnType<typeof generateCryptoKeyPair>>;
type Jwk = Parameters<typeof importJwk>[0];

/** Items per page of the outbox and followers collections, as PeerTube and Mastodon page theirs. */
export const COLLECTION_PAGE = 20;

export interface RemoteFollower {
  actorId: string;
  inbox: string;
  sharedInbox: string | null;
  followId: string | null;
}

export interface FederationServiceDeps {
  rows: FederationRepository;
  /** Refuses inboxes on private or loopback addresses unless the settings allow them. */
  allowPrivateAddresses: boolean;
  isPrivateAddress: (url: string) => Promise<boolean>;
  /** Whether an address is on a server admins blocked: nothing is kept of it, nothing is sent to it. */
  blocked?: (address: string) => Promise<boolean>;
  now?: () => number;
}

/**
 * The rules of federation, whatever speaks ActivityPub for it: which channels exist for other
 * servers (accounts in good standing), their keys, who follows them, which videos leave the site
 * (the listed ones, and only those), and the follows a channel sends.
 */
export class FederationService {
  private readonly now: () => number;

  constructor(private readonly deps: FederationServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  async channel(id: string): Promise<ChannelRow | null> {
    return (await this.deps.rows.channel(id)) ?? null;
  }

  /** A WebFinger handle's username to its channel's id: the id names the actor, so a renamed channel keeps its followers. */
  async channelIdForUsername(username: string): Promise<string | null> {
    const id = await this.deps.rows.channelIdByUsername(username);
    return id && (await this.channel(id)) ? id : null;
  }

  /** The channel's RSA key pair, made and stored the first time it is needed. */
  async keyPairs(channelId: string): Promise<KeyPair[]> {
    if (!(await this.channel(channelId))) return [];
    let stored = await this.deps.rows.keys(channelId);
    if (!stored) {
      const made = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
      const keys = { public_key: JSON.stringify(await exportJwk(made.publicKey)), private_key: JSON.stringify(await exportJwk(made.privateKey)) };
      await this.deps.rows.insertKeysIfAbsent(channelId, keys, this.now());
      stored = await this.deps.rows.keys(channelId);
      if (!stored) return [];
    }
    return [
      {
        publicKey: await importJwk(JSON.parse(stored.public_key) as Jwk, 'public'),
        privateKey: await importJwk(JSON.parse(stored.private_key) as Jwk, 'private'),
      },
    ];
  }

  /** Records a remote follower; false (nothing kept) for an unknown channel or an inbox this site may not deliver to. */
  async addFollower(channelId: string, follower: RemoteFollower): Promise<boolean> {
    if (!(await this.channel(channelId))) return false;
    if ((await this.isBlocked(follower.actorId)) || !(await this.deliverable(follower.inbox))) return false;
    const shared = follower.sharedInbox && (await this.deliverable(follower.sharedInbox)) ? follower.sharedInbox : null;
    await this.deps.rows.addFollower(
      channelId,
      { actor_id: follower.actorId, inbox: follower.inbox, shared_inbox: shared, follow_id: follower.followId },
      this.now(),
    );
    return true;
  }

  /**
   * A remote actor stopped following: the channel its Follow named, or, when the Undo names the
   * Follow only by id, the follow recorded with that id (and only that actor's).
   */
  followerLeft(left: { channelId: string | null; actorId: string; followId: string | null }): Promise<boolean> {
    if (left.channelId) return this.deps.rows.removeFollower(left.channelId, left.actorId);
    return left.followId ? this.deps.rows.removeFollowerByFollowId(left.actorId, left.followId) : Promise.resolve(false);
  }

  /**
   * A page of followers (cursor: the offset); with no cursor, whom a delivery goes to: one follower
   * standing for each remote server's shared inbox, and every follower with none. The library sends
   * one copy per shared inbox anyway, so 10,000 followers on 200 servers are 200 rows, not 10,000.
   */
  async followers(channelId: string, cursor: string | null): Promise<{ items: FollowerRow[]; nextCursor: string | null } | null> {
    if (!(await this.channel(channelId))) return null;
    if (cursor === null) return { items: await this.deps.rows.deliveryRecipients(channelId), nextCursor: null };
    const offset = parseCursor(cursor);
    if (offset === null) return null;
    const items = await this.deps.rows.followers(channelId, { offset, limit: COLLECTION_PAGE });
    return { items, nextCursor: items.length === COLLECTION_PAGE ? String(offset + COLLECTION_PAGE) : null };
  }

  followerCount(channelId: string): Promise<number> {
    return this.deps.rows.followerCount(channelId);
  }

  /** A page of the channel's listed videos, newest first; null for an unknown channel or a bad cursor. */
  async publicVideos(channelId: string, cursor: string): Promise<{ items: FederatedVideoRow[]; nextCursor: string | null } | null> {
    const offset = parseCursor(cursor);
    if (offset === null || !(await this.channel(channelId))) return null;
    const items = await this.deps.rows.publicVideos(channelId, { offset, limit: COLLECTION_PAGE });
    return { items, nextCursor: items.length === COLLECTION_PAGE ? String(offset + COLLECTION_PAGE) : null };
  }

  publicVideoCount(channelId: string): Promise<number> {
    return this.deps.rows.publicVideoCount(channelId);
  }

  /** A video other servers may see: listed, and its channel in good standing. */
  async publicVideo(id: string): Promise<FederatedVideoRow | null> {
    const row = await this.deps.rows.publicVideo(id);
    return row && (await this.channel(row.owner_id)) ? row : null;
  }

  /** Notes a Follow this channel sent, until the remote channel accepts it. */
  async followSent(channelId: string, remote: { actorId: string; inbox: string; followId: string }): Promise<void> {
    if ((await this.isBlocked(remote.actorId)) || (await this.isBlocked(remote.inbox))) throw unprocessable(`${new URL(remote.actorId).host} is blocked here`);
    if (!this.deps.allowPrivateAddresses && (await this.deps.isPrivateAddress(remote.inbox))) {
      throw unprocessable(`${remote.inbox} is on a private or loopback address`);
    }
    await this.deps.rows.addFollowing(channelId, { actor_id: remote.actorId, inbox: remote.inbox, follow_id: remote.followId }, this.now());
  }

  /** A remote channel accepted a follow: by the follow it names, or else by who accepted and whom. */
  async followAccepted(accept: { followId: string | null; channelId: string | null; remoteActorId: string }): Promise<boolean> {
    const byId = accept.followId ? await this.deps.rows.followingByFollowId(accept.followId) : undefined;
    if (byId && byId.actor_id !== accept.remoteActorId) return false;
    const channelId = byId?.channel_id ?? accept.channelId;
    return channelId ? this.deps.rows.acceptFollowing(channelId, accept.remoteActorId, this.now()) : false;
  }

  following(channelId: string) {
    return this.deps.rows.following(channelId);
  }

  followingUndone(channelId: string, remoteActorId: string): Promise<void> {
    return this.deps.rows.removeFollowing(channelId, remoteActorId);
  }

  usage() {
    return this.deps.rows.usage(this.now());
  }

  private async deliverable(inbox: string): Promise<boolean> {
    if (await this.isBlocked(inbox)) return false;
    return this.deps.allowPrivateAddresses || !(await this.deps.isPrivateAddress(inbox));
  }

  private async isBlocked(address: string): Promise<boolean> {
    return (await this.deps.blocked?.(address)) ?? false;
  }
}

function parseCursor(cursor: string): number | null {
  return /^\d{1,9}$/.test(cursor) ? Number(cursor) : null;
}
