import type { JobName } from './job-types.js';

/** The little of a logger the queues use; pino's and Fastify's loggers both fit. */
export interface QueueLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Settings both adapters share. Defaults suit production; tests shorten the times. */
export interface QueueTuning {
  /** Attempts when enqueue does not say. */
  defaultMaxAttempts?: number;
  /** First retry waits this long, each later one twice the one before. */
  backoffMs?: number;
  /** How long a job may run before its signal aborts, per job name. */
  timeLimitMs?: Partial<Record<JobName, number>>;
  /** How long a claimed job stays claimed without renewal; a dead worker's job is retried after it. */
  leaseMs?: number;
  /** How long close() waits for running jobs before aborting them. */
  closeGraceMs?: number;
  /** Called whenever a handler reports progress (after the adapter has recorded it). */
  onProgress?: (event: { id: string; name: JobName; payload: unknown; percent: number }) => void;
  /** Called after the adapter has recorded an attempt's outcome. */
  onSettled?: (event: JobSettledEvent) => void;
}

export interface JobSettledEvent {
  id: string;
  name: JobName;
  payload: unknown;
  attempt: number;
  /** `retry`: failed, another attempt will follow; `failed`: no more attempts. */
  outcome: 'done' | 'retry' | 'failed';
  error?: string;
}

export const DEFAULT_MAX_ATTEMPTS = 3;
export const DEFAULT_BACKOFF_MS = 5_000;
export const DEFAULT_LEASE_MS = 30_000;
export const DEFAULT_CLOSE_GRACE_MS = 10_000;

/** Generous: a long upload on a small machine takes a while, but a stuck ffmpeg must not hold a slot forever. */
export const DEFAULT_TIME_LIMIT_MS: Record<JobName, number> = {
  'video.playable': 60 * 60_000,
  'video.live': 6 * 60 * 60_000,
  'video.storyboard': 60 * 60_000,
  'video.ladder': 6 * 60 * 60_000,
  'video.publish': 60_000,
  'trending.rebuild': 5 * 60_000,
  'backup.scheduled': 6 * 60 * 60_000,
  'backup.manual': 6 * 60 * 60_000,
  'mail.send': 2 * 60_000,
  'federation.message': 60_000,
  // Queueing a message per remote server of a channel with many followers.
  'federation.video': 10 * 60_000,
};

/** Wait before attempt `attempt + 1`, after `attempt` failed. */
export function backoffDelay(baseMs: number, attempt: number): number {
  return baseMs * 2 ** Math.max(0, attempt - 1);
}

export class JobTimeoutError extends Error {
  constructor(ms: number) {
    super(`Job time limit of ${Math.round(ms / 1000)} s passed`);
    this.name = 'JobTimeoutError';
  }
}

export class QueueClosingError extends Error {
  constructor() {
    super('Worker is shutting down');
    this.name = 'QueueClosingError';
  }
}

/** True if p settled within ms. */
export async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let t: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((r) => (t = setTimeout(() => r(false), ms)));
  try {
    return await Promise.race([
      p.then(
        () => true,
        () => true,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(t);
  }
}

/**
 * Waits for the handler; once the signal aborts, waits at most graceMs more so a handler that
 * ignores its signal cannot hold a slot forever.
 */
export function raceAbort(work: Promise<void>, signal: AbortSignal, graceMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let t: NodeJS.Timeout | undefined;
    const onAbort = () => {
      t = setTimeout(() => reject(signal.reason), graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      () => {
        clearTimeout(t);
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (err) => {
        clearTimeout(t);
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
