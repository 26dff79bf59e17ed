import type { Db } from '../../db/client.js';
import { WatchHistoryRepository } from '../watch-history/watch-history.repository.js';

/** What the demo account wrote before a cut-off time. */
export class DemoContentRepository {
  constructor(private readonly db: Db) {}

  demoUsers() {
    return this.db.selectFrom('users').select('id').where('is_demo', '=', 1).execute();
  }

  async writtenBefore(userId: string, cutoff: number) {
    const [videos, comments, playlists, likes, subscriptions] = await Promise.all([
      this.db.selectFrom('videos').select('id').where('owner_id', '=', userId).where('created_at', '<', cutoff).execute(),
      this.db.selectFrom('comments').select('id').where('owner_id', '=', userId).where('created_at', '<', cutoff).execute(),
      this.db.selectFrom('playlists').select('id').where('owner_id', '=', userId).where('created_at', '<', cutoff).execute(),
      this.db.selectFrom('likes').select(['target_type', 'target_id']).where('user_id', '=', userId).where('created_at', '<', cutoff).execute(),
      this.db.selectFrom('subscriptions').select('channel_id').where('subscriber_id', '=', userId).where('created_at', '<', cutoff).execute(),
    ]);
    return { videos, comments, playlists, likes, subscriptions };
  }

  async forgetHistoryBefore(userId: string, cutoff: number) {
    await new WatchHistoryRepository(this.db).deleteWatchedBefore(userId, cutoff);
  }
}
