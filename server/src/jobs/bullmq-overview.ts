import type { Job, Queue } from 'bullmq';
import { emptyLaneDepths, type JobName, type JobState, type Lane, LANES, type QueuedJob, type QueueOverview } from './job-types.js';

/**
 * BullMQ's lanes as admins read them. Each lane is a queue of its own with its own job ids, so an
 * id given out here names its lane: `playable:12`.
 */
export async function bullmqOverview(queues: Record<Lane, Queue>, limit: number): Promise<QueueOverview> {
  const lanes = emptyLaneDepths();
  const running: QueuedJob[] = [];
  const failed: QueuedJob[] = [];
  for (const lane of LANES) {
    const queue = queues[lane];
    const c = await queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'failed');
    lanes[lane] = { waiting: (c.waiting ?? 0) + (c.prioritized ?? 0), delayed: c.delayed ?? 0, running: c.active ?? 0, failed: c.failed ?? 0 };
    running.push(...(await queue.getActive(0, limit - 1)).map((j) => present(lane, j as Job, 'running')));
    failed.push(...(await queue.getFailed(0, limit - 1)).map((j) => present(lane, j as Job, 'failed')));
  }
  const newestFirst = (a: QueuedJob, b: QueuedJob) => b.updatedAt - a.updatedAt;
  return { backend: 'redis', lanes, running: running.sort(newestFirst).slice(0, limit), failed: failed.sort(newestFirst).slice(0, limit) };
}

function splitId(queues: Record<Lane, Queue>, id: string): { lane: Lane; queue: Queue; jobId: string } | null {
  const at = id.indexOf(':');
  const lane = id.slice(0, at) as Lane;
  if (at < 1 || !LANES.includes(lane)) return null;
  return { lane, queue: queues[lane], jobId: id.slice(at + 1) };
}

export async function bullmqFindJob(queues: Record<Lane, Queue>, id: string): Promise<QueuedJob | null> {
  const where = splitId(queues, id);
  if (!where) return null;
  const job = (await where.queue.getJob(where.jobId)) as Job | undefined;
  if (!job) return null;
  const state = await job.getState();
  const mapped: JobState | null =
    state === 'active'
      ? 'running'
      : state === 'failed'
        ? 'failed'
        : state === 'delayed'
          ? 'delayed'
          : state === 'waiting' || state === 'prioritized' || state === 'waiting-children'
            ? 'waiting'
            : null;
  // A completed job is no longer the queue's business.
  return mapped ? present(where.lane, job, mapped) : null;
}

export async function bullmqRetryFailed(queues: Record<Lane, Queue>, id: string): Promise<boolean> {
  const where = splitId(queues, id);
  if (!where) return false;
  const job = (await where.queue.getJob(where.jobId)) as Job | undefined;
  if (!job || (await job.getState()) !== 'failed') return false;
  try {
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    return true;
  } catch {
    // Another admin's retry moved it first.
    return false;
  }
}

function present(lane: Lane, job: Job, state: JobState): QueuedJob {
  return {
    id: `${lane}:${job.id}`,
    name: job.name as JobName,
    lane,
    state,
    payload: job.data,
    attempts: job.attemptsMade,
    maxAttempts: job.opts.attempts ?? 1,
    progress: typeof job.progress === 'number' ? Math.round(job.progress) : null,
    error: job.failedReason || null,
    updatedAt: job.finishedOn ?? job.processedOn ?? job.timestamp,
  };
}
