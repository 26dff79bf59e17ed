import type { JobName } from '../../jobs/job-types.js';

/**
 * What the videos module asks of media processing once a new video's row and source are committed.
 * The pipeline module implements it; this module never reaches into the pipeline.
 */
export interface VideoProcessing {
  start(videoId: string): Promise<void>;
  /**
   * Processing again after it failed (the row is back to processing): every step is queued except
   * `except`, whose own failed job is being sent back.
   */
  retry(videoId: string, except?: JobName): Promise<void>;
}
