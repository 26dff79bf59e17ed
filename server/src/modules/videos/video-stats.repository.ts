import type { Db } from '../../db/client.js';

/** A video's running totals and its views per UTC day. */
export class VideoStatsRepository {
  constructor(private readonly db: Db) {}

  /** The totals, with what the access rules need to decide who may see them. */
  findTotals(videoId: string) {
    return this.db
      .selectFrom('videos')
      .select(['owner_id', 'status', 'visibility', 'hidden_at', 'watchable', 'views', 'likes_count', 'comments_count'])
      .where('id', '=', videoId)
      .executeTakeFirst();
  }

  /** Days (numbered from the epoch) with views between `first` and `last`, both included. */
  dailyViews(videoId: string, first: number, last: number) {
    return this.db
      .selectFrom('video_daily_views')
      .select(['day', 'views'])
      .where('video_id', '=', videoId)
      .where('day', '>=', first)
      .where('day', '<=', last)
      .execute();
  }
}
