import type { Db } from '../../db/client.js';
import { refreshVideoAccess } from '../../db/video-access.js';
import { noPublicChanges, type PublicChanges } from '../../lib/public-changes.js';

/** The columns media jobs read and write on a video row. Queries only; rules live in the handlers. */
export interface VideoMediaRow {
  id: string;
  status: 'processing' | 'ready' | 'failed';
  progress: number;
  source_key: string | null;
  video_key: string | null;
  hls_key: string | null;
  storyboard_key: string | null;
}

export class VideoMediaRepository {
  /** Every write but progress is told to `changes` once committed; progress may lag in kept answers. */
  constructor(
    private readonly db: Db,
    private readonly changes: PublicChanges = noPublicChanges,
  ) {}

  private async told<T>(result: T): Promise<T> {
    await this.changes.changed();
    return result;
  }

  async find(id: string): Promise<VideoMediaRow | null> {
    const row = await this.db
      .selectFrom('videos')
      .select(['id', 'status', 'progress', 'source_key', 'video_key', 'hls_key', 'storyboard_key'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row ?? null;
  }

  /** The uploader, whose jobs are ordered fairly against other uploaders'. */
  async ownerOf(id: string): Promise<string | null> {
    const row = await this.db.selectFrom('videos').select('owner_id').where('id', '=', id).executeTakeFirst();
    return row?.owner_id ?? null;
  }

  /** Marks the video ready; its owner's channel count of ready videos moves in the same transaction. */
  async markPlayable(id: string, v: { videoKey: string; duration: number; width: number; height: number }): Promise<boolean> {
    return this.told(
      await this.db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('videos')
          .set({ video_key: v.videoKey, duration: v.duration, width: v.width, height: v.height, status: 'ready', failure_reason: null, updated_at: Date.now() })
          .where('id', '=', id)
          .returning('owner_id')
          .executeTakeFirst();
        if (!row) return false;
        await refreshVideoAccess(trx, { ownerId: row.owner_id, videoId: id });
        return true;
      }),
    );
  }

  /**
   * The live rendition has its first segments: the video is ready (playable) with the live playlist
   * as its HLS source, unless the ladder got there first. Returns false when the row has gone.
   */
  async markLive(id: string, v: { hlsKey: string; duration: number; width: number; height: number }): Promise<boolean> {
    return this.told(
      await this.db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('videos')
          .set((eb) => ({
            hls_key: eb.fn.coalesce('hls_key', eb.val(v.hlsKey)),
            duration: v.duration,
            width: v.width,
            height: v.height,
            status: 'ready',
            failure_reason: null,
            updated_at: Date.now(),
          }))
          .where('id', '=', id)
          .where('status', '!=', 'failed')
          .returning('owner_id')
          .executeTakeFirst();
        if (!row) return false;
        await refreshVideoAccess(trx, { ownerId: row.owner_id, videoId: id });
        return true;
      }),
    );
  }

  async setHlsKey(id: string, key: string): Promise<boolean> {
    const res = await this.db.updateTable('videos').set({ hls_key: key, updated_at: Date.now() }).where('id', '=', id).executeTakeFirst();
    return this.told(Number(res.numUpdatedRows) > 0);
  }

  async setStoryboardKey(id: string, key: string): Promise<boolean> {
    const res = await this.db.updateTable('videos').set({ storyboard_key: key, updated_at: Date.now() }).where('id', '=', id).executeTakeFirst();
    return this.told(Number(res.numUpdatedRows) > 0);
  }

  /**
   * Lets go of the original once every output exists. Only one caller wins (the update matches
   * while source_key still names the file); returns whether this one did.
   */
  async releaseSourceKey(id: string, sourceKey: string): Promise<boolean> {
    const res = await this.db
      .updateTable('videos')
      .set({ source_key: null, updated_at: Date.now() })
      .where('id', '=', id)
      .where('source_key', '=', sourceKey)
      .where('status', '!=', 'failed')
      .where('video_key', 'is not', null)
      .where('hls_key', 'is not', null)
      .where('hls_key', 'not like', '%/live/index.m3u8')
      .where('storyboard_key', 'is not', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Progress only moves forward, so jobs running side by side cannot pull it back. */
  async raiseProgress(id: string, percent: number): Promise<void> {
    await this.db.updateTable('videos').set({ progress: percent }).where('id', '=', id).where('progress', '<', percent).execute();
  }

  async markFailed(id: string, reason: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('videos')
        .set({ status: 'failed', failure_reason: reason, updated_at: Date.now() })
        .where('id', '=', id)
        .returning('owner_id')
        .executeTakeFirst();
      if (row) await refreshVideoAccess(trx, { ownerId: row.owner_id, videoId: id });
    });
    await this.changes.changed();
  }

  /** The stored upload becomes the video's playable file as it is, and the video is ready. */
  async serveSourceAsIs(id: string): Promise<void> {
    await this.db
      .updateTable('videos')
      .set((eb) => ({ status: 'ready', progress: 100, video_key: eb.ref('source_key'), updated_at: Date.now() }))
      .where('id', '=', id)
      .execute();
  }

  /** A later step failed but the video already plays: it stays ready, and the reason is kept. */
  async noteFailure(id: string, reason: string): Promise<void> {
    await this.db.updateTable('videos').set({ failure_reason: reason, updated_at: Date.now() }).where('id', '=', id).execute();
    await this.changes.changed();
  }
}
