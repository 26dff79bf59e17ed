import type { Db } from '../../db/client.js';
import type { Database } from '../../db/schema.js';

export type CaptionRow = Database['captions'];
export interface CueRow {
  startMs: number;
  text: string;
}

/** Cues are inserted this many to a statement: well under either database's limit on parameters. */
const CUES_PER_INSERT = 500;

export class CaptionsRepository {
  constructor(private readonly db: Db) {}

  /** A video's captions, in the order the player's menu lists them. */
  forVideo(videoId: string): Promise<CaptionRow[]> {
    return this.db.selectFrom('captions').selectAll().where('video_id', '=', videoId).orderBy('label').orderBy('language').execute();
  }

  find(videoId: string, captionId: string): Promise<CaptionRow | undefined> {
    return this.db.selectFrom('captions').selectAll().where('id', '=', captionId).where('video_id', '=', videoId).executeTakeFirst();
  }

  /**
   * Stores a caption with its cues in one transaction, in place of the video's caption in the same
   * language if there is one; answers the replaced caption's storage key, whose file the caller
   * removes once this has committed.
   */
  async replace(row: CaptionRow, cues: CueRow[]): Promise<string | null> {
    return this.db.transaction().execute(async (trx) => {
      const old = await trx
        .selectFrom('captions')
        .select(['id', 'storage_key'])
        .where('video_id', '=', row.video_id)
        .where('language', '=', row.language)
        .executeTakeFirst();
      // Its cues go with it by foreign key.
      if (old) await trx.deleteFrom('captions').where('id', '=', old.id).execute();
      await trx.insertInto('captions').values(row).execute();
      for (let i = 0; i < cues.length; i += CUES_PER_INSERT) {
        await trx
          .insertInto('caption_cues')
          .values(cues.slice(i, i + CUES_PER_INSERT).map((c) => ({ caption_id: row.id, video_id: row.video_id, start_ms: c.startMs, text: c.text })))
          .execute();
      }
      return old?.storage_key ?? null;
    });
  }

  async delete(captionId: string): Promise<void> {
    await this.db.deleteFrom('captions').where('id', '=', captionId).execute();
  }

  videoExists(videoId: string): Promise<boolean> {
    return this.db.selectFrom('videos').select('id').where('id', '=', videoId).executeTakeFirst().then(Boolean);
  }
}
