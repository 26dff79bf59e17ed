import type { Db } from '../../db/client.js';
import { refreshVideoAccess } from '../../db/video-access.js';
import { VideoWritesRepository } from './video-writes.repository.js';

/** The schedule kept on a video row, and the publication it leads to. */
export class ScheduledPublishingRepository {
  constructor(private readonly db: Db) {}

  /** When the video is scheduled to turn public: null when it is not, undefined when it is gone. */
  async publishAt(videoId: string): Promise<number | null | undefined> {
    const row = await this.db.selectFrom('videos').select('publish_at').where('id', '=', videoId).executeTakeFirst();
    return row && (row.publish_at === null ? null : Number(row.publish_at));
  }

  /**
   * Turns the video public if it is still scheduled for `publishAt`, with its flags and counts in
   * the same transaction. Returns whether it did.
   */
  async publishIfScheduledFor(videoId: string, publishAt: number, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('videos').select(['owner_id', 'publish_at']).where('id', '=', videoId).executeTakeFirst();
      if (!row || row.publish_at === null || Number(row.publish_at) !== publishAt) return false;
      await new VideoWritesRepository(trx).publishScheduled(videoId, publishAt, now);
      await refreshVideoAccess(trx, { ownerId: row.owner_id, videoId });
      return true;
    });
  }
}
