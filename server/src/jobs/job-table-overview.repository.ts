import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import { emptyLaneDepths, JOB_LANE, type JobName, type JobState, type QueuedJob, type QueueOverview } from './job-types.js';
import type { JobRow } from './job-table.repository.js';

/**
 * The jobs table as admins read it: depth per lane, running and failed jobs, and the one change
 * they make (a failed job back in its lane). Kept apart from the statements the queue runs on.
 */
export class JobTableOverview {
  constructor(private readonly db: Db) {}

  async overview(limit: number): Promise<QueueOverview> {
    const now = Date.now();
    const counts = await this.db
      .selectFrom('jobs')
      .select(['name', 'status'])
      .select((eb) => [eb.fn.countAll<number>().as('n'), sql<number>`sum(case when run_at > ${now} then 1 else 0 end)`.as('later')])
      .where('status', 'in', ['queued', 'running', 'failed'])
      .groupBy(['name', 'status'])
      .execute();
    const lanes = emptyLaneDepths();
    for (const c of counts) {
      const depth = lanes[laneOf(c.name)];
      const n = Number(c.n);
      if (c.status === 'queued') {
        const later = Number(c.later ?? 0);
        depth.delayed += later;
        depth.waiting += n - later;
      } else if (c.status === 'running') depth.running += n;
      else if (c.status === 'failed') depth.failed += n;
    }
    const listed = (status: 'running' | 'failed') =>
      this.db.selectFrom('jobs').selectAll().where('status', '=', status).orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    const [running, failed] = await Promise.all([listed('running'), listed('failed')]);
    return { backend: 'database', lanes, running: running.map((r) => present(r, now)), failed: failed.map((r) => present(r, now)) };
  }

  async find(id: string): Promise<QueuedJob | null> {
    const n = Number(id);
    if (!Number.isSafeInteger(n)) return null;
    const row = await this.db.selectFrom('jobs').selectAll().where('id', '=', n).executeTakeFirst();
    return row ? present(row, Date.now()) : null;
  }

  /** Only a job still failed is taken: two admins pressing retry queue it once. */
  async retryFailed(id: string): Promise<boolean> {
    const n = Number(id);
    if (!Number.isSafeInteger(n)) return false;
    const now = Date.now();
    const res = await this.db
      .updateTable('jobs')
      .set({ status: 'queued', attempts: 0, run_at: now, locked_by: null, locked_until: null, updated_at: now })
      .where('id', '=', n)
      .where('status', '=', 'failed')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }
}

const laneOf = (name: string) => JOB_LANE[name as JobName] ?? 'background';

function present(row: JobRow, now: number): QueuedJob {
  const state: JobState = row.status === 'queued' ? (Number(row.run_at) > now ? 'delayed' : 'waiting') : row.status === 'running' ? 'running' : 'failed';
  let payload: unknown = null;
  try {
    payload = JSON.parse(row.payload);
  } catch {
    /* a payload this version cannot read still shows as a job */
  }
  return {
    id: String(row.id),
    name: row.name as JobName,
    lane: laneOf(row.name),
    state,
    payload,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    // The table keeps no job progress: the video row has the overall one.
    progress: null,
    error: row.last_error,
    updatedAt: Number(row.updated_at),
  };
}
