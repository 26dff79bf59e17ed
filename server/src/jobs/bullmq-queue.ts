import { DelayedError, type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import {
  type EnqueueOptions,
  JOB_PRIORITY,
  type JobContext,
  type JobHandler,
  type JobHandlers,
  type JobMap,
  type JobName,
  type JobQueue,
} from './job-types.js';
import {
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

export interface BullmqQueueOptions extends QueueTuning {
  redisUrl: string;
  logger: QueueLogger;
  /** Redis key prefix; sites sharing one Redis need different ones. */
  prefix?: string;
  /** Queue name inside the prefix. */
  queueName?: string;
  /** How many times a job may be found stalled (its worker died) before it fails. */
  maxStalledCount?: number;
}

type AnyJob = Job<unknown, void, JobName>;

/**
 * Jobs in Redis through BullMQ, so `npm run worker` processes on any number of machines can share
 * them. BullMQ's job lock plays the lease: a worker that dies stops renewing it, the job is found
 * stalled and goes back to waiting for another worker.
 */
export class BullmqQueue implements JobQueue {
  private readonly log: QueueLogger;
  private readonly opts: BullmqQueueOptions;
  private readonly prefix: string;
  private readonly queueName: string;
  private readonly timeLimits: Record<JobName, number>;
  private readonly leaseMs: number;
  private readonly queueConnection: Redis;
  private readonly queue: Queue;
  private worker: Worker<unknown, void, JobName> | null = null;
  private workerConnection: Redis | null = null;
  private readonly active = new Map<string, AbortController>();

  constructor(opts: BullmqQueueOptions) {
    this.opts = opts;
    this.log = opts.logger;
    this.prefix = opts.prefix ?? 'reelhouse';
    this.queueName = opts.queueName ?? 'jobs';
    this.timeLimits = { ...DEFAULT_TIME_LIMIT_MS, ...opts.timeLimitMs };
    this.leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    this.queueConnection = connect(opts.redisUrl);
    this.queue = new Queue(this.queueName, {
      connection: this.queueConnection,
      prefix: this.prefix,
      defaultJobOptions: {
        attempts: opts.defaultMaxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        backoff: { type: 'exponential', delay: opts.backoffMs ?? DEFAULT_BACKOFF_MS },
        removeOnComplete: { age: 24 * 3600, count: 10_000 },
        removeOnFail: { age: 14 * 24 * 3600 },
      },
    });
  }

  /** For tests and health checks: the underlying BullMQ queue. */
  get bullQueue(): Queue {
    return this.queue;
  }

  async enqueue<N extends JobName>(name: N, payload: JobMap[N], opts: EnqueueOptions = {}): Promise<void> {
    await this.queue.add(name, payload, {
      // BullMQ reads 0 as "no priority" and runs those first; ours are 1 and up already.
      priority: Math.max(1, opts.priority ?? JOB_PRIORITY[name]),
      delay: opts.delayMs,
      ...(opts.maxAttempts !== undefined ? { attempts: opts.maxAttempts } : {}),
    });
  }

  async start(handlers: JobHandlers, opts: { concurrency: number }): Promise<void> {
    if (this.worker) throw new Error('Queue already started');
    this.workerConnection = connect(this.opts.redisUrl);
    const worker = new Worker<unknown, void, JobName>(
      this.queueName,
      (job, token, signal) => this.process(handlers, job, token, signal),
      {
        connection: this.workerConnection,
        prefix: this.prefix,
        concurrency: Math.max(1, opts.concurrency),
        lockDuration: this.leaseMs,
        stalledInterval: this.leaseMs,
        maxStalledCount: this.opts.maxStalledCount ?? 2,
      },
    );
    this.worker = worker;
    worker.on('completed', (job) => this.settled(job, 'done'));
    worker.on('failed', (job, err) => {
      if (!job || err instanceof DelayedError || err.name === 'DelayedError') return;
      const final = err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
      this.settled(job, final ? 'failed' : 'retry', err);
    });
    worker.on('stalled', (jobId) => this.log.warn({ job: jobId }, 'job stalled (its worker stopped); retrying'));
    worker.on('error', (err) => this.log.error({ err }, 'job worker error'));
    await worker.waitUntilReady();
    this.log.info({ prefix: this.prefix, queue: this.queueName, concurrency: opts.concurrency, jobs: Object.keys(handlers) }, 'job queue started');
  }

  async close(): Promise<void> {
    if (this.worker) {
      const worker = this.worker;
      const closed = worker.close();
      if (!(await settlesWithin(closed, this.opts.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS))) {
        this.log.warn({ jobs: [...this.active.keys()] }, 'jobs still running at shutdown; aborting them');
        for (const ac of this.active.values()) ac.abort(new QueueClosingError());
        await settlesWithin(closed, 5_000);
      }
      this.worker = null;
    }
    await this.queue.close();
    await Promise.all([this.queueConnection.quit().catch(() => {}), this.workerConnection?.quit().catch(() => {})]);
  }

  private async process(handlers: JobHandlers, job: AnyJob, token: string | undefined, cancel?: AbortSignal): Promise<void> {
    const name = job.name;
    const handler = handlers[name] as JobHandler<JobName> | undefined;
    if (!handler) throw new UnrecoverableError(`No handler for job ${name}`);
    const abort = new AbortController();
    const limitMs = this.timeLimits[name];
    const timer = setTimeout(() => abort.abort(new JobTimeoutError(limitMs)), limitMs);
    const onCancel = () => abort.abort(cancel?.reason ?? new Error('Job cancelled'));
    cancel?.addEventListener('abort', onCancel, { once: true });
    const attempt = job.attemptsMade + 1;
    const ctx: JobContext = {
      attempt,
      signal: abort.signal,
      progress: async (percent) => {
        const p = Math.max(0, Math.min(100, Math.round(percent)));
        await job.updateProgress(p);
        this.opts.onProgress?.({ id: job.id!, name, payload: job.data, percent: p });
      },
    };
    this.active.set(job.id!, abort);
    this.log.info({ job: job.id, name, payload: job.data, attempt }, 'job started');
    const started = Date.now();
    try {
      await raceAbort(handler(job.data as JobMap[JobName], ctx), abort.signal, this.leaseMs);
      if (abort.signal.aborted) throw abort.signal.reason;
      this.log.info({ job: job.id, name, ms: Date.now() - started }, 'job done');
    } catch (err) {
      const reason = abort.signal.aborted ? abort.signal.reason : err;
      if (reason instanceof QueueClosingError && token) {
        // Not the job's fault: back to the queue at once, without using up an attempt.
        await job.moveToDelayed(Date.now(), token);
        throw new DelayedError();
      }
      this.log.warn({ job: job.id, name, attempt, err: reason }, 'job attempt failed');
      throw reason;
    } finally {
      clearTimeout(timer);
      cancel?.removeEventListener('abort', onCancel);
      this.active.delete(job.id!);
    }
  }

  private settled(job: AnyJob, outcome: 'done' | 'retry' | 'failed', err?: Error) {
    if (outcome === 'failed') this.log.error({ job: job.id, name: job.name, attempts: job.attemptsMade, err }, 'job failed for good');
    this.opts.onSettled?.({
      id: job.id!,
      name: job.name,
      payload: job.data,
      attempt: outcome === 'done' ? job.attemptsMade + 1 : job.attemptsMade,
      outcome,
      error: err?.message,
    });
  }
}

/** BullMQ needs retries without limit on its blocking connections. */
function connect(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false });
}
