import { sql } from 'kysely';
import type { Db } from '../../db/client.js';
import { SUMMARY_COLUMNS, type VideoSummaryRow } from '../videos/videos.repository.js';

export interface FollowedChannelRow {
  id: string;
  username: string;
  full_name: string;
  avatar_key: string | null;
  subscribed_at: number;
}

/** Below every upload time: a channel with fewer videos than the cutoff's position gives all of them. */
const NO_CUTOFF = -Number.MAX_SAFE_INTEGER;

/** What a subscriber sees of the channels they follow: their newest videos and the channels. */
export class SubscriptionsFeedRepository {
  constructor(private readonly db: Db) {}

  /**
   * One page of the listed videos of the followed channels, newest first, with the total.
   *
   * The page is among each followed channel's newest `offset + limit` listed videos, so each channel
   * is read only that far down its (owner, listed, created_at, id) index from the cutoff found by one
   * seek; the few candidates are merged and sorted. A channel with thousands of videos costs a page
   * no more than one with a dozen. The total is the sum of the channels' kept listed counts
   * (users.videos_count, 0 for a banned channel), exact without reading a single video.
   */
  async videos(subscriberId: string, offset: number, limit: number): Promise<{ rows: VideoSummaryRow[]; total: number }> {
    const count = await this.db
      .selectFrom('subscriptions')
      .innerJoin('users', 'users.id', 'subscriptions.channel_id')
      .where('subscriptions.subscriber_id', '=', subscriberId)
      .select(sql<number>`coalesce(sum(users.videos_count), 0)`.as('n'))
      .executeTakeFirstOrThrow();
    const total = Number(count.n);
    if (total === 0 || offset >= total) return { rows: [], total };
    const rows = await this.db
      .selectFrom('videos')
      .innerJoin('users', 'users.id', 'videos.owner_id')
      .select(SUMMARY_COLUMNS)
      .where('videos.id', 'in', this.pageIds(subscriberId, offset, limit))
      .orderBy('videos.created_at', 'desc')
      .orderBy('videos.id', 'desc')
      .execute();
    return { rows, total };
  }

  /** The ids of the page's videos, from each followed channel's newest `offset + limit` listed ones. */
  private pageIds(subscriberId: string, offset: number, limit: number) {
    // The created_at of the channel's (offset + limit)-th newest listed video: everything the page
    // can hold from that channel is at or after it (ties only add candidates). Fewer: all of them.
    const cutoff = sql<number>`coalesce((select w.created_at from videos w
      where w.owner_id = subscriptions.channel_id and w.listed = 1
      order by w.created_at desc, w.id desc limit 1 offset ${offset + limit - 1}), ${NO_CUTOFF})`;
    return this.db
      .selectFrom('subscriptions')
      .innerJoin('videos as v', (join) => join.onRef('v.owner_id', '=', 'subscriptions.channel_id').on('v.listed', '=', 1).on('v.created_at', '>=', cutoff))
      .select('v.id')
      .where('subscriptions.subscriber_id', '=', subscriberId)
      .orderBy('v.created_at', 'desc')
      .orderBy('v.id', 'desc')
      .limit(limit)
      .offset(offset);
  }

  /** One page of the followed channels by username; banned accounts are gone until unbanned. */
  async channels(subscriberId: string, offset: number, limit: number): Promise<{ rows: FollowedChannelRow[]; total: number }> {
    const base = this.db
      .selectFrom('subscriptions')
      .innerJoin('users', 'users.id', 'subscriptions.channel_id')
      .where('subscriptions.subscriber_id', '=', subscriberId)
      .where('users.banned_at', 'is', null);
    const [rows, count] = await Promise.all([
      base
        .select(['users.id', 'users.username', 'users.full_name', 'users.avatar_key', 'subscriptions.created_at as subscribed_at'])
        .orderBy('users.username')
        .limit(limit)
        .offset(offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }
}
