import type { JobHandlers, JobMap, JobQueue } from '../../jobs/job-types.js';
import type { QueueLogger } from '../../jobs/queue-options.js';
import { tell, type VideoEvents } from './video-events.js';
import { noPublicChanges, type PublicChanges } from '../../lib/public-changes.js';
import type { ScheduledPublishingRepository } from './scheduled-publishing.repository.js';

/** What the videos service asks of scheduling: a durable job that publishes a video at a time. */
export interface PublishScheduler {
  schedule(videoId: string, publishAt: number): Promise<void>;
}

export interface ScheduledPublishingDeps {
  videos: ScheduledPublishingRepository;
  queue: JobQueue;
  logger: QueueLogger;
  /** Told once a scheduled video is public (subscribers hear of it). */
  events?: Pick<VideoEvents, 'videoListed'>;
  /** Told once a scheduled video is public: kept answers that did not list it are dropped. */
  changes?: PublicChanges;
  /** The clock; tests inject one. */
  now?: () => number;
}

/**
 * Scheduled publishing. A scheduled video is private with `publish_at` set; one `video.publish`
 * job per schedule, delayed until that time, turns it public. The job carries the time it was
 * made for, so a schedule that was changed or cancelled since (the row's `publish_at` no longer
 * matches) leaves its old job with nothing to do, and a deleted video's job finds no row. Both
 * queue adapters keep delayed jobs durably (a table row, a Redis sorted set), so a restart loses
 * no schedule.
 */
export class ScheduledPublishing implements PublishScheduler {
  private readonly now: () => number;

  constructor(private readonly deps: ScheduledPublishingDeps) {
    this.now = deps.now ?? Date.now;
  }

  async schedule(videoId: string, publishAt: number): Promise<void> {
    await this.deps.queue.enqueue('video.publish', { videoId, publishAt }, { delayMs: Math.max(0, publishAt - this.now()) });
  }

  handlers(): JobHandlers {
    return {
      'video.publish': async (payload) => {
        await this.publish(payload);
      },
    };
  }

  /**
   * Publishes the video if its schedule is still the one this job was made for and its time has
   * come. A job that runs early (another machine's clock ahead of this one) puts itself back for
   * the time left, so the video never turns public before its time.
   */
  async publish({ videoId, publishAt }: JobMap['video.publish']): Promise<'published' | 'stale' | 'early'> {
    const now = this.now();
    const early = publishAt - now;
    if (early > 0) {
      if ((await this.deps.videos.publishAt(videoId)) !== publishAt) return 'stale';
      await this.schedule(videoId, publishAt);
      return 'early';
    }
    if (!(await this.deps.videos.publishIfScheduledFor(videoId, publishAt, now))) return 'stale';
    this.deps.logger.info({ videoId, publishAt }, 'scheduled video published');
    await (this.deps.changes ?? noPublicChanges).changed();
    const events = this.deps.events;
    if (events) await tell(this.deps.logger, 'videoListed', () => events.videoListed(videoId));
    return 'published';
  }
}
