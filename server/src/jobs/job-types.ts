/**
 * Every job the system runs, with its payload. Jobs carry ids only: a handler reloads its row and
 * does nothing if the row has gone.
 */
export interface JobMap {
  /**
   * First playable file: a fast-start remux of a source browsers play; for any other source it
   * hands over to `video.live`.
   */
  'video.playable': { videoId: string };
  /** A live-style HLS rendition of a source browsers cannot play, then its progressive file. */
  'video.live': { videoId: string };
  /** Seek-preview sprite sheets and their WebVTT index. */
  'video.storyboard': { videoId: string };
  /** The HLS ladder. */
  'video.ladder': { videoId: string };
  /** Turns a scheduled video public; publishAt is the schedule it was made for (ms since the epoch). */
  'video.publish': { videoId: string; publishAt: number };
  /** Works the trending list out again; `slot` is the schedule's turn it was asked for (see trending-jobs.ts). */
  'trending.rebuild': { slot: number };
  /** A backup at a turn of BACKUP_CRON; `slot` is the turn (ms since the epoch), taken once whichever process runs it. */
  'backup.scheduled': { slot: number };
  /** A backup an admin asked for; `by` is the admin's id. */
  'backup.manual': { by: string; requestedAt: number };
  /** One mail (a password reset, an address check) whose row is in the mails table. */
  'mail.send': { mailId: string };
  /**
   * One message of the ActivityPub library's queue (a delivery to a remote inbox, an activity
   * received, a fan-out to followers), kept in the federation_messages table (see federation-queue.ts).
   */
  'federation.message': { messageId: string };
  /** Tells a video's channel's followers what became of it: Create, Update or Delete, whichever is due. */
  'federation.video': { videoId: string };
}
export type JobName = keyof JobMap;

/** Lower runs first: what makes a video playable beats everything else. */
export const JOB_PRIORITY: Record<JobName, number> = {
  'video.playable': 1,
  'video.live': 1,
  'video.storyboard': 2,
  'video.ladder': 3,
  'video.publish': 1,
  'trending.rebuild': 2,
  // Ahead of the ladders waiting in its lane: a backup should not wait hours behind an upload spree.
  'backup.scheduled': 1,
  'backup.manual': 1,
  // Someone is waiting for the mail with the page open.
  'mail.send': 1,
  // Follows and their answers: another server is waiting, but nobody watches a page for them.
  'federation.message': 2,
  'federation.video': 2,
};

/**
 * Each lane has its own slots, so work that makes a video playable never waits behind a ladder:
 * `playable` (quick remuxes), `live` (live renditions, which run for a while but must start at
 * once), `background` (storyboards and ladders), `federation` (deliveries to other servers, which
 * mostly wait on the network: a slow or vanished server holds one of its slots, never a remux's).
 */
export type Lane = 'playable' | 'live' | 'background' | 'federation';
export const LANES: readonly Lane[] = ['playable', 'live', 'background', 'federation'];
export const JOB_LANE: Record<JobName, Lane> = {
  'video.playable': 'playable',
  'video.live': 'live',
  'video.storyboard': 'background',
  'video.ladder': 'background',
  // A moment's work that must happen on time: it never waits behind a ladder.
  'video.publish': 'playable',
  // A second or so of queries, due every few minutes: behind a ladder it would go stale for hours.
  'trending.rebuild': 'playable',
  // Minutes of disk and database reading on a large site: it must not hold a slot remuxes need.
  'backup.scheduled': 'background',
  'backup.manual': 'background',
  // A second's work that a person waits for: never behind a ladder.
  'mail.send': 'playable',
  'federation.message': 'federation',
  'federation.video': 'federation',
};
export type LaneConcurrency = Record<Lane, number>;

/** A single number gives every lane that many slots. */
export function laneConcurrency(c: number | Partial<LaneConcurrency>): LaneConcurrency {
  if (typeof c === 'number') return { playable: Math.max(1, c), live: Math.max(1, c), background: Math.max(1, c), federation: Math.max(1, c) };
  return {
    playable: Math.max(1, c.playable ?? 1),
    live: Math.max(1, c.live ?? 1),
    background: Math.max(1, c.background ?? 1),
    federation: Math.max(1, c.federation ?? 1),
  };
}

export const jobsInLane = (lane: Lane, names: JobName[]): JobName[] => names.filter((n) => JOB_LANE[n] === lane);

export interface JobContext {
  /** Attempt number, starting at 1. */
  attempt: number;
  /** Reports progress 0-100. */
  progress(percent: number): Promise<void>;
  /** Aborted when the job's time limit passes or the worker shuts down. */
  signal: AbortSignal;
}

export type JobHandler<N extends JobName> = (payload: JobMap[N], ctx: JobContext) => Promise<void>;
export type JobHandlers = { [N in JobName]?: JobHandler<N> };

export interface EnqueueOptions {
  priority?: number;
  delayMs?: number;
  maxAttempts?: number;
  /**
   * Whose work this is (the uploader's id). Jobs of one name are taken in fair order between keys:
   * a key's next job queues behind one job of every other waiting key, not behind all of them.
   */
  fairKey?: string;
}

/** One interface, two adapters: a job table in the app's database, and BullMQ on Redis. */
export interface JobQueue {
  enqueue<N extends JobName>(name: N, payload: JobMap[N], opts?: EnqueueOptions): Promise<void>;
  /** Starts consuming jobs with the given handlers. */
  start(handlers: JobHandlers, opts: { concurrency: number | Partial<LaneConcurrency> }): Promise<void>;
  /** Stops taking new jobs, waits for running ones up to a grace period, and closes connections. */
  close(): Promise<void>;
  /** What admins see: depth per lane, the running jobs and the latest that failed for good. */
  overview(limit?: number): Promise<QueueOverview>;
  findJob(id: string): Promise<QueuedJob | null>;
  /** Puts a job that failed for good back in its lane with fresh attempts; false if it is not failed (any more). */
  retryFailed(id: string): Promise<boolean>;
}

export type JobState = 'waiting' | 'delayed' | 'running' | 'failed';

/** A job as the queue reports it to admins, whichever adapter keeps it. */
export interface QueuedJob {
  id: string;
  name: JobName;
  lane: Lane;
  state: JobState;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
  progress: number | null;
  error: string | null;
  updatedAt: number;
}

export interface QueueOverview {
  backend: 'database' | 'redis';
  lanes: Record<Lane, Record<JobState, number>>;
  running: QueuedJob[];
  failed: QueuedJob[];
}

export const emptyLaneDepths = (): QueueOverview['lanes'] => ({
  playable: { waiting: 0, delayed: 0, running: 0, failed: 0 },
  live: { waiting: 0, delayed: 0, running: 0, failed: 0 },
  background: { waiting: 0, delayed: 0, running: 0, failed: 0 },
  federation: { waiting: 0, delayed: 0, running: 0, failed: 0 },
});
