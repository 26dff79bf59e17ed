import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** A video other servers were told of: which channel told them, and the edit they last heard. */
export interface SentVideoRow {
  video_id: string;
  channel_id: string;
  video_updated_at: number;
}

/** The videos whose Create went to their channel's followers, until their Delete does. */
export class SentVideosRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(videoId: string): Promise<SentVideoRow | undefined> {
    return this.db
      .selectFrom('federation_sent_videos')
      .select(['video_id', 'channel_id', 'video_updated_at'])
      .where('video_id', '=', videoId)
      .executeTakeFirst();
  }

  /**
   * The claims below make one delivery job the sender of each change: two jobs for one video
   * (two events of one edit) race on the row, and only the one whose claim changes it sends.
   */
  async claimCreate(row: SentVideoRow, now: number): Promise<boolean> {
    const r = await this.db
      .insertInto('federation_sent_videos')
      .values({ ...row, sent_at: now })
      .onConflict((oc) => oc.column('video_id').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async claimUpdate(videoId: string, from: number, to: number, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('federation_sent_videos')
      .set({ video_updated_at: to, sent_at: now })
      .where('video_id', '=', videoId)
      .where('video_updated_at', '=', from)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async claimDelete(videoId: string): Promise<boolean> {
    const r = await this.db.deleteFrom('federation_sent_videos').where('video_id', '=', videoId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Puts a row back as it was, when what was claimed could not be queued for sending. */
  async restore(row: SentVideoRow, now: number): Promise<void> {
    await this.db
      .insertInto('federation_sent_videos')
      .values({ ...row, sent_at: now })
      .onConflict((oc) => oc.column('video_id').doUpdateSet({ channel_id: row.channel_id, video_updated_at: row.video_updated_at }))
      .execute();
  }

  async forget(videoId: string): Promise<void> {
    await this.db.deleteFrom('federation_sent_videos').where('video_id', '=', videoId).execute();
  }
}
