import type { Db } from '../../db/client.js';
import type { JobQueue } from '../../jobs/job-types.js';
import type { QueueLogger } from '../../jobs/queue-options.js';
import type { PublicChanges } from '../../lib/public-changes.js';
import type { MediaTools } from '../../media/media-tools.js';
import type { Storage } from '../../storage/storage.js';
import type { VideoEvents } from '../videos/video-events.js';

/** What the video pipeline is built from. */
export interface VideoPipelineDeps {
  db: Db;
  storage: Storage;
  queue: JobQueue;
  /** ffmpeg and ffprobe, with the memory ceiling and background niceness every run shares. */
  media: MediaTools;
  logger: QueueLogger;
  /** Scratch space; each job works in its own subdirectory and removes it. */
  workDir: string;
  /** Attempts per job (default 3); the last failed one marks the video. */
  maxAttempts?: number;
  /** Parallel uploads of one job's files. */
  uploadConcurrency?: number;
  /** KEEP_ORIGINAL_UPLOADS: keep the upload after processing (default: delete it once every output exists). */
  keepOriginalUploads?: boolean;
  /** Told when a video becomes playable or fails for good (its owner and followers are notified). */
  events?: Pick<VideoEvents, 'videoReady' | 'videoFailed'>;
  /** Heights of the rungs the site makes (an instance setting), read when each ladder starts; every rung when absent. */
  ladderRungs?(): Promise<number[]>;
  /** Told of every step that changes what visitors see (ready, a new rendition, failed). */
  changes?: PublicChanges;
}

/** The steps run without a queue when called directly (tests, benchmarks). */
export type VideoStepDeps = Omit<VideoPipelineDeps, 'queue'>;
