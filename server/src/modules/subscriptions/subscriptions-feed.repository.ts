import type { Db } from '../../db/client.js';
import { listedVideo } from '../videos/video-access.js';
import { SUMMARY_COLUMNS, type VideoSummaryRow } from '../videos/videos.repository.js';

export interface FollowedChannelRow {
  id: string;
  username: string;
  full_name: string;
  avatar_key: string | null;
  subscribed_at: number;
}

/** What a subscriber sees of the channels they follow: their newest videos and the channels. */
export class SubscriptionsFeedRepository {
  constructor(private readonly db: Db) {}

  private followedBy(subscriberId: string) {
    return this.db.selectFrom('subscriptions').select('channel_id').where('subscriber_id', '=', subscriberId);
  }

  /** One page of the listed videos of the followed channels, newest first, with the total. */
  async videos(subscriberId: string, offset: number, limit: number): Promise<{ rows: VideoSummaryRow[]; total: number }> {
    const base = this.db.selectFrom('videos').where('videos.owner_id', 'in', this.followedBy(subscriberId)).where(listedVideo());
    const count = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const total = Number(count.n);
    if (total === 0 || offset >= total) return { rows: [], total };
    const rows = await base
      .innerJoin('users', 'users.id', 'videos.owner_id')
      .select(SUMMARY_COLUMNS)
      .orderBy('videos.created_at', 'desc')
      .orderBy('videos.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return { rows, total };
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
