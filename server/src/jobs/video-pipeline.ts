import type { Db } from '../db/client.js';
import type { Storage } from '../storage/storage.js';
import { FAILURE_REASONS, VideoJobs } from './handlers/video-jobs.js';
import { VideoMediaRepository } from './handlers/video-media.repository.js';
import { JOB_PRIORITY, type JobHandlers, type JobName, type JobQueue } from './job-types.js';
import { DEFAULT_MAX_ATTEMPTS, type JobSettledEvent, type QueueLogger } from './queue-options.js';
import type { VideoProcessing } from './video-processing.js';
import type { VideoEvents } from '../modules/videos/video-events.js';
import type { PublicChanges } from '../lib/public-changes.js';

export interface VideoPipelineDeps {
  db: Db;
  storage: Storage;
  queue: JobQueue;
  ffmpegPath: string;
  ffprobePath: string;
  logger: QueueLogger;
  /** Scratch directory for ffmpeg's work files. */
  workDir: string;
  /** Attempts per job (default 3); the last failed one marks the video. */
  maxAttempts?: number;
  /** KEEP_ORIGINAL_UPLOADS: keep the upload after processing instead of deleting it. */
  keepOriginalUploads?: boolean;
  /** Niceness of storyboard and ladder ffmpeg processes. */
  backgroundNice?: number;
  /** Told when a video becomes playable or fails for good. */
  events?: Pick<VideoEvents, 'videoReady' | 'videoFailed'>;
  /** The ladder rungs the site's settings choose, read when each ladder starts. */
  ladderRungs?(): Promise<number[]>;
  /** Told when a video's row changes in a way visitors see (ready, new renditions, failed). */
  changes?: PublicChanges;
}

const VIDEO_JOBS = ['video.playable', 'video.storyboard', 'video.ladder'] as const;

/**
 * Turns an uploaded source into what the player needs: a playable progressive file first, then
 * seek previews, then the HLS ladder, as three durable jobs in that priority order. The last of
 * them to finish removes the source, unless originals are kept.
 */
export class VideoPipeline implements VideoProcessing {
  private readonly jobs: VideoJobs;
  private readonly maxAttempts: number;
  private readonly repo: VideoMediaRepository;

  constructor(private readonly deps: VideoPipelineDeps) {
    this.maxAttempts = deps.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    this.repo = new VideoMediaRepository(deps.db);
    this.jobs = new VideoJobs({ ...deps, maxAttempts: this.maxAttempts, startLive: (videoId) => this.enqueue('video.live', videoId) });
  }

  /** Call after the transaction that created the video row (status processing, source_key set) committed. */
  async start(videoId: string): Promise<void> {
    const owner = await this.repo.ownerOf(videoId);
    for (const name of VIDEO_JOBS) await this.enqueue(name, videoId, owner);
  }

  async retry(videoId: string, except?: JobName): Promise<void> {
    const owner = await this.repo.ownerOf(videoId);
    // A live rendition's job stands for the playable step: queueing that step too would start a second one.
    const skip = except === 'video.live' ? 'video.playable' : except;
    // A step already done does nothing when its job runs again: only what is missing is made.
    for (const name of VIDEO_JOBS) if (name !== skip) await this.enqueue(name, videoId, owner);
  }

  /** Jobs carry their uploader as the fair key: one account's twenty uploads do not starve the rest. */
  private async enqueue(name: JobName, videoId: string, owner?: string | null): Promise<void> {
    const fairKey = owner === undefined ? await this.repo.ownerOf(videoId) : owner;
    await this.deps.queue.enqueue(name, { videoId }, { priority: JOB_PRIORITY[name], maxAttempts: this.maxAttempts, fairKey: fairKey ?? undefined });
  }

  handlers(): JobHandlers {
    return {
      'video.playable': this.jobs.playable,
      'video.live': this.jobs.live,
      'video.storyboard': this.jobs.storyboard,
      'video.ladder': this.jobs.ladder,
    };
  }

  /**
   * For a queue's onSettled hook: a job that failed for good without its handler recording it
   * (its worker died during the last attempt) still marks the video.
   */
  async onJobSettled(event: JobSettledEvent): Promise<void> {
    if (event.outcome !== 'failed') return;
    const step = event.name === 'video.playable' || event.name === 'video.live' ? 'playable' : event.name === 'video.storyboard' ? 'storyboard' : event.name === 'video.ladder' ? 'ladder' : null;
    const videoId = (event.payload as { videoId?: unknown } | null)?.videoId;
    if (!step || typeof videoId !== 'string') return;
    await this.jobs.recordFinalFailure(step, videoId, FAILURE_REASONS.failed);
  }
}
