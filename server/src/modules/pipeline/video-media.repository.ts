import type { Db } from '../../db/client.js';
import { refreshVideoAccess } from '../../db/video-access.js';
import { noPublicChanges, type PublicChanges } from '../../lib/public-changes.js';
import { VideoWritesRepository } from '../videos/video-writes.repository.js';

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

  private writes(db: Db = this.db) {
    return new VideoWritesRepository(db);
  }

  /** Marks the video ready; its owner's channel count of ready videos moves in the same transaction. */
  async markPlayable(id: string, v: { videoKey: string; duration: number; width: number; height: number }): Promise<boolean> {
    return this.told(
      await this.db.transaction().execute(async (trx) => {
        const ownerId = await this.writes(trx).markPlayable(id, v);
        if (ownerId === undefined) return false;
        await refreshVideoAccess(trx, { ownerId, videoId: id });
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
        const ownerId = await this.writes(trx).markLive(id, v);
        if (ownerId === undefined) return false;
        await refreshVideoAccess(trx, { ownerId, videoId: id });
        return true;
      }),
    );
  }

  async setHlsKey(id: string, key: string): Promise<boolean> {
    return this.told(await this.writes().setHlsKey(id, key));
  }

  async setStoryboardKey(id: string, key: string): Promise<boolean> {
    return this.told(await this.writes().setStoryboardKey(id, key));
  }

  /**
   * Lets go of the original once every output exists. Only one caller wins (the update matches
   * while source_key still names the file); returns whether this one did.
   */
  releaseSourceKey(id: string, sourceKey: string): Promise<boolean> {
    return this.writes().releaseSourceKey(id, sourceKey);
  }

  /** Progress only moves forward, so jobs running side by side cannot pull it back. */
  raiseProgress(id: string, percent: number): Promise<void> {
    return this.writes().raiseProgress(id, percent);
  }

  async markFailed(id: string, reason: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const ownerId = await this.writes(trx).markFailed(id, reason);
      if (ownerId !== undefined) await refreshVideoAccess(trx, { ownerId, videoId: id });
    });
    await this.changes.changed();
  }

  /** The stored upload becomes the video's playable file as it is, and the video is ready. */
  serveSourceAsIs(id: string): Promise<void> {
    return this.writes().serveSourceAsIs(id);
  }

  /** A later step failed but the video already plays: it stays ready, and the reason is kept. */
  async noteFailure(id: string, reason: string): Promise<void> {
    await this.writes().noteFailure(id, reason);
    await this.changes.changed();
  }
}
