import { sql } from 'kysely';
import type { Db } from '../../db/client.js';
import { SUMMARY_COLUMNS, type SortField, type SortType, type VideoSummaryRow } from '../videos/videos.repository.js';
import { type Viewer, watchableBy } from '../../db/video-access.js';

/** sortBy mapped to fixed columns; createdAt means when the video was watched. */
const SORT_COLUMNS = {
  createdAt: 'watch_history.watched_at',
  views: 'videos.views',
  duration: 'videos.duration',
  title: 'videos.title',
} as const;

export type WatchedRow = VideoSummaryRow & { watched_at: number; watch_position: number | null };

export class WatchHistoryRepository {
  constructor(private readonly db: Db) {}

  /**
   * Puts the video at the top of the user's history and drops entries beyond `keep`, in one
   * transaction. Times only ever grow per user (a call in the same millisecond as the last one gets
   * the next millisecond), so the newest call is always first. A position, when given, is kept for
   * resuming; a call without one leaves the last saved position as it is.
   */
  async record(userId: string, videoId: string, now: number, keep: number, position?: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const last = await trx
        .selectFrom('watch_history')
        .select((eb) => eb.fn.max('watched_at').as('t'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      const watchedAt = Math.max(now, Number(last?.t ?? 0) + 1);
      await trx
        .insertInto('watch_history')
        .values({ user_id: userId, video_id: videoId, watched_at: watchedAt, position: position ?? null })
        .onConflict((oc) =>
          oc.columns(['user_id', 'video_id']).doUpdateSet(position === undefined ? { watched_at: watchedAt } : { watched_at: watchedAt, position }),
        )
        .execute();
      // The keep-th newest entry is the oldest one kept; anything older goes.
      const cutoff = await trx
        .selectFrom('watch_history')
        .select('watched_at')
        .where('user_id', '=', userId)
        .orderBy('watched_at', 'desc')
        .limit(1)
        .offset(keep - 1)
        .executeTakeFirst();
      if (cutoff) {
        await trx.deleteFrom('watch_history').where('user_id', '=', userId).where('watched_at', '<', cutoff.watched_at).execute();
      }
      return watchedAt;
    });
  }

  /** Forgets the user's entries watched before `cutoff`. */
  async deleteWatchedBefore(userId: string, cutoff: number): Promise<void> {
    await this.db.deleteFrom('watch_history').where('user_id', '=', userId).where('watched_at', '<', cutoff).execute();
  }

  /**
   * One page of the user's history with the total. Videos the user may no longer open are left
   * out, as they are everywhere else.
   */
  async list(viewer: Viewer, opts: { sortBy: SortField; sortType: SortType; limit: number; offset: number }): Promise<{ rows: WatchedRow[]; total: number }> {
    const base = this.db
      .selectFrom('watch_history')
      .innerJoin('videos', 'videos.id', 'watch_history.video_id')
      .where('watch_history.user_id', '=', viewer.id)
      .where(watchableBy(viewer));
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const total = Number(n);
    if (total === 0 || opts.offset >= total) return { rows: [], total };
    const rows = await base
      .innerJoin('users', 'users.id', 'videos.owner_id')
      .select(SUMMARY_COLUMNS)
      .select(['watch_history.watched_at', 'watch_history.position as watch_position'])
      .orderBy(SORT_COLUMNS[opts.sortBy], opts.sortType)
      .orderBy(sql`watch_history.video_id`, opts.sortType)
      .limit(opts.limit)
      .offset(opts.offset)
      .execute();
    return { rows, total };
  }
}
