import { JOB_PRIORITY, type JobHandlers, type JobName } from '../../jobs/job-types.js';
import { DEFAULT_MAX_ATTEMPTS, type JobSettledEvent } from '../../jobs/queue-options.js';
import type { VideoProcessing } from '../videos/video-processing.js';
import type { VideoPipelineDeps } from './video-pipeline.deps.js';
import { VideoMediaRepository } from './video-media.repository.js';
import { FAILURE_REASONS } from './video-step-runner.js';
import { VideoSteps } from './video-steps.js';

const VIDEO_JOBS = ['video.playable', 'video.storyboard', 'video.ladder'] as const;

/**
 * Turns an uploaded source into what the player needs: a playable progressive file first, then
 * seek previews, then the HLS ladder, as three durable jobs in that priority order. The last of
 * them to finish removes the source, unless originals are kept.
 */
export class VideoPipeline implements VideoProcessing {
  private readonly steps: VideoSteps;
  private readonly maxAttempts: number;
  private readonly repo: VideoMediaRepository;

  constructor(private readonly deps: VideoPipelineDeps) {
    this.maxAttempts = deps.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    this.repo = new VideoMediaRepository(deps.db);
    this.steps = new VideoSteps({ ...deps, maxAttempts: this.maxAttempts }, (videoId) => this.enqueue('video.live', videoId));
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
      'video.playable': this.steps.playable,
      'video.live': this.steps.live,
      'video.storyboard': this.steps.storyboard,
      'video.ladder': this.steps.ladder,
    };
  }

  /**
   * For a queue's onSettled hook: a job that failed for good without its handler recording it
   * (its worker died during the last attempt) still marks the video.
   */
  async onJobSettled(event: JobSettledEvent): Promise<void> {
    if (event.outcome !== 'failed') return;
    const step =
      event.name === 'video.playable' || event.name === 'video.live'
        ? 'playable'
        : event.name === 'video.storyboard'
          ? 'storyboard'
          : event.name === 'video.ladder'
            ? 'ladder'
            : null;
    const videoId = (event.payload as { videoId?: unknown } | null)?.videoId;
    if (!step || typeof videoId !== 'string') return;
    await this.steps.recordFinalFailure(step, videoId, FAILURE_REASONS.failed);
  }
}
