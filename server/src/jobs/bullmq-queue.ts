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
  JOB_LANE,
  jobsInLane,
  type Lane,
  type LaneConcurrency,
  laneConcurrency,
  LANES,
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
import { bullmqFindJob, bullmqOverview, bullmqRetryFailed } from './bullmq-overview.js';

export interface BullmqQueueOptions extends QueueTuning {
  redisUrl: string;
  logger: QueueLogger;
  /** Redis key prefix; sites sharing one Redis need different ones. */
  prefix?: string;
  /**
   * Queue name inside the prefix. The background lane uses it as it is (so jobs queued before lanes
   * existed still run); the other lanes add `-playable`, `-live` and `-federation`.
   */
  queueName?: string;
  /** How many times a job may be found stalled (its worker died) before it fails. */
  maxStalledCount?: number;
}

type AnyJob = Job<unknown, void, JobName>;

/**
 * BullMQ priorities go up to 2^21. The job's own priority takes the high bits and its fair rank
 * the low 16, so fair order applies within one priority, as on the table queue.
 */
const RANK_BITS = 16;
const MAX_RANK = 2 ** RANK_BITS - 1;
export const bullPriority = (priority: number, rank: number) => Math.max(1, priority) * 2 ** RANK_BITS + Math.min(MAX_RANK, Math.max(0, rank));
const rankOf = (bullmqPriority: number | undefined) => (bullmqPriority ?? 0) % 2 ** RANK_BITS;

/**
 * One past the key's last rank, and never below the rank of the last job started: atomically, in
 * Redis. KEYS[1]: hash key -> last rank given; KEYS[2]: rank of the last job started.
 */
const NEXT_RANK_LUA = `
local last = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '-1')
local started = tonumber(redis.call('GET', KEYS[2]) or '0')
local r = math.max(last + 1, started)
redis.call('HSET', KEYS[1], ARGV[1], r)
return r`;
const STARTED_RANK_LUA = `
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > cur then redis.call('SET', KEYS[1], ARGV[1]) end
return 0`;

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
  private readonly queues: Record<Lane, Queue>;
  private workers: Worker<unknown, void, JobName>[] = [];
  private workerConnections: Redis[] = [];
  private readonly active = new Map<string, AbortController>();

  constructor(opts: BullmqQueueOptions) {
    this.opts = opts;
    this.log = opts.logger;
    this.prefix = opts.prefix ?? 'reelhouse';
    this.queueName = opts.queueName ?? 'jobs';
    this.timeLimits = { ...DEFAULT_TIME_LIMIT_MS, ...opts.timeLimitMs };
    this.leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    this.queueConnection = connect(opts.redisUrl);
    const make = (name: string) =>
      new Queue(name, {
        connection: this.queueConnection,
        prefix: this.prefix,
        defaultJobOptions: {
          attempts: opts.defaultMaxAttempts ?? DEFAULT_MAX_ATTEMPTS,
          backoff: { type: 'exponential', delay: opts.backoffMs ?? DEFAULT_BACKOFF_MS },
          removeOnComplete: { age: 24 * 3600, count: 10_000 },
          removeOnFail: { age: 14 * 24 * 3600 },
        },
      });
    this.queues = {
      playable: make(this.laneQueueName('playable')),
      live: make(this.laneQueueName('live')),
      background: make(this.queueName),
      federation: make(this.laneQueueName('federation')),
    };
  }

  private laneQueueName(lane: Lane): string {
    return lane === 'background' ? this.queueName : `${this.queueName}-${lane}`;
  }

  /** For tests and health checks: the BullMQ queue of a lane. */
  bullQueue(lane: Lane = 'background'): Queue {
    return this.queues[lane];
  }

  overview(limit = 50) {
    return bullmqOverview(this.queues, limit);
  }

  findJob(id: string) {
    return bullmqFindJob(this.queues, id);
  }

  retryFailed(id: string) {
    return bullmqRetryFailed(this.queues, id);
  }

  private fairKeys(name: JobName) {
    const base = `${this.prefix}:${this.laneQueueName(JOB_LANE[name])}:fair:${name}`;
    return { ranks: `${base}:ranks`, started: `${base}:started` };
  }

  async enqueue<N extends JobName>(name: N, payload: JobMap[N], opts: EnqueueOptions = {}): Promise<void> {
    const queue = this.queues[JOB_LANE[name]];
    let rank = 0;
    if (opts.fairKey) {
      const keys = this.fairKeys(name);
      // An idle lane starts counting afresh, so ranks stay far below the 16 bits they have.
      const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed');
      if (Object.values(counts).every((n) => n === 0)) await this.queueConnection.del(keys.ranks, keys.started);
      rank = Number(await this.queueConnection.eval(NEXT_RANK_LUA, 2, keys.ranks, keys.started, opts.fairKey));
    }
    await queue.add(name, payload, {
      // BullMQ reads 0 as "no priority" and runs those first; ours are 1 and up already.
      priority: bullPriority(opts.priority ?? JOB_PRIORITY[name], rank),
      delay: opts.delayMs,
      ...(opts.maxAttempts !== undefined ? { attempts: opts.maxAttempts } : {}),
    });
  }

  async start(handlers: JobHandlers, opts: { concurrency: number | Partial<LaneConcurrency> }): Promise<void> {
    if (this.workers.length > 0) throw new Error('Queue already started');
    const concurrency = laneConcurrency(opts.concurrency);
    const names = Object.keys(handlers) as JobName[];
    // One worker per lane, each with its own slots: a ladder never holds a playable job's place.
    for (const lane of LANES) {
      if (jobsInLane(lane, names).length === 0) continue;
      const connection = connect(this.opts.redisUrl);
      this.workerConnections.push(connection);
      const worker = new Worker<unknown, void, JobName>(this.laneQueueName(lane), (job, token, signal) => this.process(handlers, job, token, signal), {
        connection,
        prefix: this.prefix,
        concurrency: concurrency[lane],
        lockDuration: this.leaseMs,
        stalledInterval: this.leaseMs,
        maxStalledCount: this.opts.maxStalledCount ?? 2,
      });
      this.listen(worker);
      this.workers.push(worker);
    }
    await Promise.all(this.workers.map((w) => w.waitUntilReady()));
    this.log.info({ prefix: this.prefix, queue: this.queueName, concurrency, jobs: names }, 'job queue started');
  }

  private listen(worker: Worker<unknown, void, JobName>) {
    worker.on('completed', (job) => this.settled(job, 'done'));
    worker.on('failed', (job, err) => {
      if (!job || err instanceof DelayedError || err.name === 'DelayedError') return;
      const final = err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
      this.settled(job, final ? 'failed' : 'retry', err);
    });
    worker.on('stalled', (jobId) => this.log.warn({ job: jobId }, 'job stalled (its worker stopped); retrying'));
    worker.on('error', (err) => this.log.error({ err }, 'job worker error'));
  }

  async close(): Promise<void> {
    if (this.workers.length > 0) {
      const closed = Promise.all(this.workers.map((w) => w.close()));
      if (!(await settlesWithin(closed, this.opts.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS))) {
        this.log.warn({ jobs: [...this.active.keys()] }, 'jobs still running at shutdown; aborting them');
        for (const ac of this.active.values()) ac.abort(new QueueClosingError());
        await settlesWithin(closed, 5_000);
      }
      this.workers = [];
    }
    await Promise.all(LANES.map((lane) => this.queues[lane].close()));
    await Promise.all([this.queueConnection.quit().catch(() => {}), ...this.workerConnections.map((c) => c.quit().catch(() => {}))]);
    this.workerConnections = [];
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
    this.active.set(`${job.queueName}:${job.id}`, abort);
    const rank = rankOf(job.opts.priority);
    if (rank > 0) {
      const keys = this.fairKeys(name);
      await this.queueConnection.eval(STARTED_RANK_LUA, 1, keys.started, String(rank)).catch((err) => this.log.warn({ err }, 'could not record the fair rank'));
    }
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
      this.active.delete(`${job.queueName}:${job.id}`);
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
