import { type Kysely, sql } from 'kysely';
import { listedVideo } from '../../db/video-access.js';
import type { Database } from '../../db/schema.js';

/** A channel as other servers see it: an account of this site in good standing. */
export interface ChannelRow {
  id: string;
  username: string;
  full_name: string;
  avatar_key: string | null;
  cover_key: string | null;
  created_at: number;
}

/** A video that may leave the site (listed: public, published, ready, not taken down), with its channel. */
export interface FederatedVideoRow {
  id: string;
  owner_id: string;
  title: string;
  description: string;
  duration: number;
  width: number | null;
  height: number | null;
  video_key: string | null;
  hls_key: string | null;
  thumbnail_key: string;
  listed: number;
  publish_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface FollowerRow {
  actor_id: string;
  inbox: string;
  shared_inbox: string | null;
}

const VIDEO_COLUMNS = [
  'videos.id',
  'videos.owner_id',
  'videos.title',
  'videos.description',
  'videos.duration',
  'videos.width',
  'videos.height',
  'videos.video_key',
  'videos.hls_key',
  'videos.thumbnail_key',
  'videos.listed',
  'videos.publish_at',
  'videos.created_at',
  'videos.updated_at',
] as const;

/** The rows federation reads and writes: channels, their keys, followers and follows, their public videos. */
export class FederationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  channel(id: string): Promise<ChannelRow | undefined> {
    return (
      this.db
        .selectFrom('users')
        .select(['id', 'username', 'full_name', 'avatar_key', 'cover_key', 'created_at'])
        .where('id', '=', id)
        .where('banned_at', 'is', null)
        .where('approval_pending', '=', 0)
        // A remote channel kept here is its own server's to speak for.
        .where('remote_actor_id', 'is', null)
        .executeTakeFirst()
    );
  }

  async channelIdByUsername(username: string): Promise<string | null> {
    const row = await this.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
    return row?.id ?? null;
  }

  keys(userId: string) {
    return this.db.selectFrom('federation_keys').select(['public_key', 'private_key']).where('user_id', '=', userId).executeTakeFirst();
  }

  /** Keeps the first pair made: two processes making one at once agree on whichever was stored. */
  async insertKeysIfAbsent(userId: string, keys: { public_key: string; private_key: string }, now: number): Promise<void> {
    await this.db
      .insertInto('federation_keys')
      .values({ user_id: userId, ...keys, created_at: now })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
  }

  async addFollower(channelId: string, f: FollowerRow & { follow_id: string | null }, now: number): Promise<void> {
    await this.db
      .insertInto('federation_followers')
      .values({ channel_id: channelId, ...f, created_at: now })
      .onConflict((oc) => oc.columns(['channel_id', 'actor_id']).doUpdateSet({ inbox: f.inbox, shared_inbox: f.shared_inbox, follow_id: f.follow_id }))
      .execute();
  }

  async removeFollower(channelId: string, actorId: string): Promise<boolean> {
    const r = await this.db.deleteFrom('federation_followers').where('channel_id', '=', channelId).where('actor_id', '=', actorId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** An Undo that names the Follow only by its id: whichever channel that Follow was of. */
  async removeFollowerByFollowId(actorId: string, followId: string): Promise<boolean> {
    const r = await this.db.deleteFrom('federation_followers').where('actor_id', '=', actorId).where('follow_id', '=', followId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** A page of followers, oldest first, so a page's rows stay put as followers arrive. */
  followers(channelId: string, page: { offset: number; limit: number }): Promise<FollowerRow[]> {
    return this.db
      .selectFrom('federation_followers')
      .select(['actor_id', 'inbox', 'shared_inbox'])
      .where('channel_id', '=', channelId)
      .orderBy('created_at')
      .orderBy('actor_id')
      .offset(page.offset)
      .limit(page.limit)
      .execute();
  }

  /** One follower per shared inbox (any of them: the inbox is what counts), and each follower that has none. */
  async deliveryRecipients(channelId: string): Promise<FollowerRow[]> {
    const [own, shared] = await Promise.all([
      this.db
        .selectFrom('federation_followers')
        .select(['actor_id', 'inbox', 'shared_inbox'])
        .where('channel_id', '=', channelId)
        .where('shared_inbox', 'is', null)
        .execute(),
      this.db
        .selectFrom('federation_followers')
        .select((eb) => [eb.fn.min('actor_id').as('actor_id'), eb.fn.min('inbox').as('inbox'), 'shared_inbox'])
        .where('channel_id', '=', channelId)
        .where('shared_inbox', 'is not', null)
        .groupBy('shared_inbox')
        .execute(),
    ]);
    return [...own, ...(shared as FollowerRow[])];
  }

  async followerCount(channelId: string): Promise<number> {
    const row = await this.db
      .selectFrom('federation_followers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('channel_id', '=', channelId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async addFollowing(channelId: string, f: { actor_id: string; inbox: string; follow_id: string }, now: number): Promise<void> {
    await this.db
      .insertInto('federation_following')
      .values({ channel_id: channelId, ...f, accepted_at: null, created_at: now })
      .onConflict((oc) => oc.columns(['channel_id', 'actor_id']).doUpdateSet({ inbox: f.inbox, follow_id: f.follow_id, accepted_at: null }))
      .execute();
  }

  async acceptFollowing(channelId: string, actorId: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('federation_following')
      .set({ accepted_at: now })
      .where('channel_id', '=', channelId)
      .where('actor_id', '=', actorId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  followingByFollowId(followId: string) {
    return this.db.selectFrom('federation_following').select(['channel_id', 'actor_id']).where('follow_id', '=', followId).executeTakeFirst();
  }

  following(channelId: string) {
    return this.db
      .selectFrom('federation_following')
      .select(['actor_id', 'inbox', 'follow_id', 'accepted_at'])
      .where('channel_id', '=', channelId)
      .orderBy('created_at')
      .execute();
  }

  async removeFollowing(channelId: string, actorId: string): Promise<void> {
    await this.db.deleteFrom('federation_following').where('channel_id', '=', channelId).where('actor_id', '=', actorId).execute();
  }

  /** A channel's listed videos, newest first. */
  publicVideos(ownerId: string, page: { offset: number; limit: number }): Promise<FederatedVideoRow[]> {
    return this.db
      .selectFrom('videos')
      .select(VIDEO_COLUMNS)
      .where('videos.owner_id', '=', ownerId)
      .where(listedVideo())
      .orderBy('videos.created_at', 'desc')
      .orderBy('videos.id', 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute();
  }

  /** What the channel shows to others: the count video-access.ts keeps. */
  async publicVideoCount(ownerId: string): Promise<number> {
    const row = await this.db.selectFrom('users').select('videos_count').where('id', '=', ownerId).executeTakeFirst();
    return Number(row?.videos_count ?? 0);
  }

  publicVideo(id: string): Promise<FederatedVideoRow | undefined> {
    return this.db.selectFrom('videos').select(VIDEO_COLUMNS).where('videos.id', '=', id).where(listedVideo()).executeTakeFirst();
  }

  /** NodeInfo's figures: accounts in good standing, those signed in lately, listed videos, comments on them. */
  async usage(now: number): Promise<{ users: number; activeMonth: number; activeHalfyear: number; videos: number; comments: number }> {
    const accounts = this.db.selectFrom('users').where('banned_at', 'is', null).where('approval_pending', '=', 0).where('remote_actor_id', 'is', null);
    const active = (sinceMs: number) =>
      accounts
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('sessions')
              .select(sql`1`.as('one'))
              .whereRef('sessions.user_id', '=', 'users.id')
              .where('sessions.last_used_at', '>=', now - sinceMs),
          ),
        )
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
    const [users, month, halfyear, videos, remoteVideos, comments] = await Promise.all([
      accounts.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      active(30 * 86_400_000),
      active(180 * 86_400_000),
      this.db.selectFrom('counters').select('value').where('key', '=', 'public_videos').executeTakeFirst(),
      // The counter counts remote channels' videos kept here too; they are not this site's posts.
      this.db
        .selectFrom('users')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('videos_count'), eb.lit(0)).as('n'))
        .where('remote_actor_id', 'is not', null)
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('comments')
        .innerJoin('videos', 'videos.id', 'comments.video_id')
        .where(listedVideo())
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return {
      users: Number(users.n),
      activeMonth: Number(month.n),
      activeHalfyear: Number(halfyear.n),
      videos: Number(videos?.value ?? 0) - Number(remoteVideos.n),
      comments: Number(comments.n),
    };
  }
}
