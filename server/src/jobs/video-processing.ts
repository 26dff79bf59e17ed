import type { Db } from '../db/client.js';
import type { JobName } from './job-types.js';

/** What the API asks of media processing once a new video's row and source are committed. */
export interface VideoProcessing {
  start(videoId: string): Promise<void>;
  /**
   * Processing again after it failed (the row is back to processing): every step is queued except
   * `except`, whose own failed job is being sent back.
   */
  retry(videoId: string, except?: JobName): Promise<void>;
}

/**
 * Serves the uploaded source as it is. Used where no pipeline runs (some tests): the video is ready
 * as soon as its upload is stored.
 */
export class ServeSourceAsIs implements VideoProcessing {
  constructor(private readonly db: Db) {}

  async start(videoId: string): Promise<void> {
    await this.db.updateTable('videos')
      .set((eb) => ({ status: 'ready', progress: 100, video_key: eb.ref('source_key'), updated_at: Date.now() }))
      .where('id', '=', videoId)
      .execute();
  }

  retry(videoId: string): Promise<void> {
    return this.start(videoId);
  }
}
