import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Db, Dialect } from '../db/client.js';
import {
  type EnqueueOptions,
  JOB_PRIORITY,
  type JobContext,
  type JobHandler,
  type JobHandlers,
  type JobMap,
  type JobName,
  type JobQueue,
  JOB_LANE,
  jobsInLane,
  type Lane,
  type LaneConcurrency,
  laneConcurrency,
  LANES,
} from './job-types.js';
import {
  backoffDelay,
  DEFAULT_BACKOFF_MS,
  DEFAULT_CLOSE_GRACE_MS,
  DEFAULT_LEASE_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_TIME_LIMIT_MS,
  JobTimeoutError,
  QueueClosingError,
  type QueueLogger,
  raceAbort,
  settlesWithin,
  type QueueTuning,
} from './queue-options.js';
import { type JobRow, JobTable } from './job-table.repository.js';
import { JobTableOverview } from './job-table-overview.repository.js';

export interface LocalQueueOptions extends QueueTuning {
  db: Db;
  dialect: Dialect;
  logger: QueueLogger;
  /** How often an idle worker looks for due jobs; enqueues in this process wake it at once. */
  pollIntervalMs?: number;
  /** Done jobs are deleted after this long, failed ones after keepFailedMs. */
  keepDoneMs?: number;
  keepFailedMs?: number;
  /** Names this worker in locked_by; unique per process by default. */
  workerId?: string;
}

interface Running {
  row: JobRow;
  lane: Lane;
  abort: AbortController;
  done: Promise<void>;
}

const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Jobs in a table of the app's own database, run inside this process. Works on SQLite and
 * PostgreSQL; on PostgreSQL several processes may consume the same table, since a claim is one
 * atomic UPDATE and a lease that is not renewed (the process died) makes the job claimable again.
 */
export class LocalQueue implements JobQueue {
  private readonly table: JobTable;
  private readonly inspector: JobTableOverview;
  private readonly log: QueueLogger;
  private readonly workerId: string;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly backoffMs: number;
  private readonly defaultMaxAttempts: number;
  private readonly timeLimits: Record<JobName, number>;
  private readonly closeGraceMs: number;
  private readonly keepDoneMs: number;
  private readonly keepFailedMs: number;
  private readonly onProgress: QueueTuning['onProgress'];
  private readonly onSettled: QueueTuning['onSettled'];

  private handlers: JobHandlers = {};
  private concurrency: LaneConcurrency = laneConcurrency(1);
  private readonly running = new Map<number, Running>();
  private closing = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private lastPrune = 0;

  constructor(opts: LocalQueueOptions) {
    this.log = opts.logger;
    this.workerId = opts.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.table = new JobTable(opts.db, opts.dialect, this.workerId);
    this.inspector = new JobTableOverview(opts.db);
    this.pollIntervalMs = opts.pollIntervalMs ?? 500;
    this.leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    this.backoffMs = opts.backoffMs ?? DEFAULT_BACKOFF_MS;
    this.defaultMaxAttempts = opts.defaultMaxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    this.timeLimits = { ...DEFAULT_TIME_LIMIT_MS, ...opts.timeLimitMs };
    this.closeGraceMs = opts.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
    this.keepDoneMs = opts.keepDoneMs ?? 24 * 3600_000;
    this.keepFailedMs = opts.keepFailedMs ?? 14 * 24 * 3600_000;
    this.onProgress = opts.onProgress;
    this.onSettled = opts.onSettled;
  }

  async enqueue<N extends JobName>(name: N, payload: JobMap[N], opts: EnqueueOptions = {}): Promise<void> {
    await this.table.insert({
      name,
      payload,
      priority: opts.priority ?? JOB_PRIORITY[name],
      maxAttempts: opts.maxAttempts ?? this.defaultMaxAttempts,
      runAt: Date.now() + (opts.delayMs ?? 0),
      fairKey: opts.fairKey ?? null,
    });
    this.wakeUp();
  }

  async start(handlers: JobHandlers, opts: { concurrency: number | Partial<LaneConcurrency> }): Promise<void> {
    if (this.loop) throw new Error('Queue already started');
    this.handlers = handlers;
    this.concurrency = laneConcurrency(opts.concurrency);
    this.closing = false;
    this.loop = this.runLoop();
    this.log.info({ worker: this.workerId, concurrency: this.concurrency, jobs: Object.keys(handlers) }, 'job queue started');
  }

  overview(limit = 50) {
    return this.inspector.overview(limit);
  }

  findJob(id: string) {
    return this.inspector.find(id);
  }

  async retryFailed(id: string): Promise<boolean> {
    const retried = await this.inspector.retryFailed(id);
    if (retried) this.wakeUp();
    return retried;
  }

  async close(): Promise<void> {
    this.closing = true;
    this.wakeUp();
    await this.loop;
    this.loop = null;
    if (this.running.size === 0) return;
    const all = () => Promise.all([...this.running.values()].map((r) => r.done));
    if (!(await settlesWithin(all(), this.closeGraceMs))) {
      this.log.warn({ jobs: [...this.running.keys()] }, 'jobs still running at shutdown; aborting them');
      for (const r of this.running.values()) r.abort.abort(new QueueClosingError());
      // Handlers that ignore the signal are left behind; their lease lapses and another worker retries.
      await settlesWithin(all(), 5_000);
    }
  }

  private wakeUp() {
    this.wake?.();
  }

  private async runLoop(): Promise<void> {
    const names = Object.keys(this.handlers) as JobName[];
    const lanes = LANES.map((lane) => ({ lane, names: jobsInLane(lane, names) })).filter((l) => l.names.length > 0);
    while (!this.closing) {
      try {
        // Each lane fills its own slots: a busy background lane never holds up a playable job.
        for (const { lane, names: laneNames } of lanes) {
          while (!this.closing && this.runningIn(lane) < this.concurrency[lane]) {
            const row = await this.claim(laneNames);
            if (!row) break;
            this.run(row);
          }
        }
        if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
          this.lastPrune = Date.now();
          await this.table.prune(this.keepDoneMs, this.keepFailedMs);
        }
      } catch (err) {
        this.log.error({ err }, 'job queue poll failed');
      }
      if (this.closing) break;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, this.pollIntervalMs);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  private runningIn(lane: Lane): number {
    let n = 0;
    for (const r of this.running.values()) if (r.lane === lane) n++;
    return n;
  }

  /** The most urgent due job of these names, skipping (and failing) one that has had all its attempts. */
  private async claim(names: JobName[]): Promise<JobRow | undefined> {
    for (;;) {
      const row = await this.table.claim(names, this.leaseMs);
      if (!row || row.attempts <= row.max_attempts) return row;
      // Its worker died on the last attempt: it has had all its chances.
      await this.table.markFailed(row.id, row.last_error ?? 'Worker stopped during the last attempt');
      this.log.error({ job: row.id, name: row.name }, 'job failed: worker stopped during its last attempt');
    }
  }

  private run(row: JobRow) {
    const name = row.name as JobName;
    const handler = this.handlers[name] as JobHandler<JobName>;
    const payload = JSON.parse(row.payload) as JobMap[JobName];
    const abort = new AbortController();
    const limitMs = this.timeLimits[name];
    const timer = setTimeout(() => abort.abort(new JobTimeoutError(limitMs)), limitMs);
    const lease = setInterval(() => void this.renew(row, abort), Math.max(50, Math.floor(this.leaseMs / 3)));
    const ctx: JobContext = {
      attempt: row.attempts,
      signal: abort.signal,
      progress: async (percent) => {
        const p = Math.max(0, Math.min(100, Math.round(percent)));
        this.log.debug({ job: row.id, name, percent: p }, 'job progress');
        this.onProgress?.({ id: String(row.id), name, payload, percent: p });
      },
    };
    const started = Date.now();
    this.log.info({ job: row.id, name, payload, attempt: row.attempts }, 'job started');

    const done = (async () => {
      let error: unknown = null;
      try {
        await raceAbort(handler(payload, ctx), abort.signal, this.leaseMs);
        if (abort.signal.aborted) error = abort.signal.reason;
      } catch (err) {
        error = abort.signal.aborted ? abort.signal.reason : err;
      } finally {
        clearTimeout(timer);
        clearInterval(lease);
      }
      try {
        await this.finish(row, error, Date.now() - started);
      } catch (err) {
        this.log.error({ err, job: row.id }, 'could not record the job outcome');
      }
    })().finally(() => {
      this.running.delete(row.id);
      this.wakeUp();
    });
    this.running.set(row.id, { row, lane: JOB_LANE[name], abort, done });
  }

  /** Extends the lease; if another worker took the job over, this one stops working on it. */
  private async renew(row: JobRow, abort: AbortController) {
    try {
      if (!(await this.table.renew(row.id, this.leaseMs)) && !abort.signal.aborted) {
        this.log.warn({ job: row.id }, 'lost the job lease');
        abort.abort(new Error('Lost the job lease'));
      }
    } catch (err) {
      this.log.warn({ err, job: row.id }, 'could not renew the job lease');
    }
  }

  private async finish(row: JobRow, error: unknown, ms: number) {
    const outcome = await this.record(row, error, ms);
    if (outcome) {
      this.onSettled?.({
        id: String(row.id),
        name: row.name as JobName,
        payload: JSON.parse(row.payload),
        attempt: row.attempts,
        outcome,
        error: error === null ? undefined : error instanceof Error ? error.message : String(error),
      });
    }
  }

  private async record(row: JobRow, error: unknown, ms: number): Promise<'done' | 'retry' | 'failed' | null> {
    if (error === null) {
      await this.table.markDone(row.id);
      this.log.info({ job: row.id, name: row.name, ms }, 'job done');
      return 'done';
    }
    if (error instanceof QueueClosingError) {
      // Not the job's fault: give the attempt back.
      await this.table.putBack(row.id);
      this.log.info({ job: row.id, name: row.name }, 'job put back at shutdown');
      return null;
    }
    const message = error instanceof Error ? error.message : String(error);
    if (row.attempts < row.max_attempts) {
      const delay = backoffDelay(this.backoffMs, row.attempts);
      await this.table.retryAt(row.id, Date.now() + delay, message);
      this.log.warn({ job: row.id, name: row.name, attempt: row.attempts, retryInMs: delay, err: error }, 'job failed; will retry');
      return 'retry';
    }
    await this.table.markFailed(row.id, message);
    this.log.error({ job: row.id, name: row.name, attempts: row.attempts, err: error }, 'job failed for good');
    return 'failed';
  }
}
