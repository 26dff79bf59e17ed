import type { Db } from '../../db/client.js';

/** The records that keep one viewer from counting twice within the view window. */
export class ViewEventsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Records this viewer's view of the video unless their last counted one is less than windowMs
   * old; returns whether it did. The upsert only touches counted_at when the old one has expired,
   * and RETURNING says whether it did; both dialects do this atomically, so two racing calls count once.
   */
  async recordUnlessRecent(videoId: string, viewerKey: string, now: number, windowMs: number): Promise<boolean> {
    const touched = await this.db
      .insertInto('view_events')
      .values({ video_id: videoId, viewer_key: viewerKey, counted_at: now })
      .onConflict((oc) =>
        oc
          .columns(['video_id', 'viewer_key'])
          .doUpdateSet({ counted_at: now })
          .where('view_events.counted_at', '<=', now - windowMs),
      )
      .returning('counted_at')
      .executeTakeFirst();
    return Boolean(touched);
  }

  /** Forgets every record of this viewer (they are the viewer's data). */
  async deleteForViewer(viewerKey: string): Promise<void> {
    await this.db.deleteFrom('view_events').where('viewer_key', '=', viewerKey).execute();
  }

  /** Forgets records counted before `cutoff`; returns how many. */
  async deleteCountedBefore(cutoff: number): Promise<number> {
    const res = await this.db.deleteFrom('view_events').where('counted_at', '<', cutoff).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
