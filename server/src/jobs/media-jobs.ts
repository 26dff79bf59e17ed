import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { DbHandle } from '../db/client.js';
import { configureMediaLimits } from '../media/run-process.js';
import type { Storage } from '../storage/storage.js';
import { createQueue } from './create-queue.js';
import type { JobHandlers, JobQueue } from './job-types.js';
import { ScheduledPublishing } from '../modules/videos/scheduled-publishing.js';
import { ScheduledPublishingRepository } from '../modules/videos/scheduled-publishing.repository.js';
import { TrendingJobs } from '../modules/discovery/trending-jobs.js';
import { VideoPipeline } from './video-pipeline.js';
import type { VideoEvents } from '../modules/videos/video-events.js';
import { InstanceService } from '../modules/instance/instance.service.js';
import { InstanceSettingsRepository } from '../modules/instance/instance-settings.repository.js';
import type { PublicChanges } from '../lib/public-changes.js';

/**
 * The queue, the video pipeline, scheduled publishing and trending's rebuilds, wired together the same way in the API process and in a
 * worker: a job that failed for good without its handler knowing (its process died on the last
 * attempt) still marks the video.
 */
export function createMediaJobs(deps: {
  config: Config; database: DbHandle; storage: Storage; logger: Logger; workDir: string;
  events?: Pick<VideoEvents, 'videoReady' | 'videoFailed' | 'videoListed'>;
  /** Told when a job changes what visitors see: a video ready, failed or published. */
  changes: PublicChanges;
}): {
  queue: JobQueue;
  pipeline: VideoPipeline;
  publishing: ScheduledPublishing;
  /** The trending list's rebuilds: a process that runs jobs also asks for them on schedule. */
  trending: TrendingJobs;
  /** Every job's handler, for queue.start. */
  handlers(): JobHandlers;
} {
  const { config, database, storage, logger, workDir } = deps;
  // Both the API (probing uploads) and workers (transcoding) get here: one place sets the ceiling.
  configureMediaLimits({ memoryLimitMb: config.mediaMemoryLimitMb });
  let pipeline: VideoPipeline | null = null;
  const queue = createQueue({
    redisUrl: config.redisUrl,
    db: database.db,
    dialect: database.dialect,
    logger,
    onSettled: (event) => {
      pipeline?.onJobSettled(event).catch((err) => logger.error({ err, job: event.id }, 'could not record a job failure'));
    },
  });
  const instance = new InstanceService({ settings: new InstanceSettingsRepository(database.db), config });
  pipeline = new VideoPipeline({
    db: database.db, storage, queue, ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath, logger, workDir,
    keepOriginalUploads: config.keepOriginalUploads, backgroundNice: config.backgroundJobNice, events: deps.events, changes: deps.changes,
    ladderRungs: () => instance.ladderRungs(),
  });
  const publishing = new ScheduledPublishing({ videos: new ScheduledPublishingRepository(database.db), queue, logger, events: deps.events, changes: deps.changes });
  const trending = new TrendingJobs({ db: database.db, dialect: database.dialect, queue, logger, everyMs: config.trendingRefreshMs });
  const video = pipeline;
  return { queue, pipeline, publishing, trending, handlers: () => ({ ...video.handlers(), ...publishing.handlers(), ...trending.handlers() }) };
}
