/**
 * Every job the system runs, with its payload. Jobs carry ids only: a handler reloads its row and
 * does nothing if the row has gone.
 */
export interface JobMap {
  /** First playable file: fast-start remux, or a transcode when the browser cannot play the source. */
  'video.playable': { videoId: string };
  /** Seek-preview sprite sheets and their WebVTT index. */
  'video.storyboard': { videoId: string };
  /** The HLS ladder. */
  'video.ladder': { videoId: string };
}
export type JobName = keyof JobMap;

/** Lower runs first: what makes a video playable beats everything else. */
export const JOB_PRIORITY: Record<JobName, number> = {
  'video.playable': 1,
  'video.storyboard': 2,
  'video.ladder': 3,
};

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
}

/** One interface, two adapters: a job table in the app's database, and BullMQ on Redis. */
export interface JobQueue {
  enqueue<N extends JobName>(name: N, payload: JobMap[N], opts?: EnqueueOptions): Promise<void>;
  /** Starts consuming jobs with the given handlers. */
  start(handlers: JobHandlers, opts: { concurrency: number }): Promise<void>;
  /** Stops taking new jobs, waits for running ones up to a grace period, and closes connections. */
  close(): Promise<void>;
}
