import type { Selectable } from 'kysely';
import type { Db, Dialect } from '../db/client.js';
import type { Database } from '../db/schema.js';
import type { JobName } from './job-types.js';

export type JobRow = Selectable<Database['jobs']>;

export interface NewJob {
  name: JobName;
  payload: unknown;
  priority: number;
  maxAttempts: number;
  runAt: number;
  fairKey: string | null;
}

/**
 * The jobs table as the in-process queue uses it: every statement that reads or changes a job row,
 * and nothing about running handlers. Changes to a claimed job only apply while this worker holds it.
 */
export class JobTable {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly workerId: string,
  ) {}

  async insert(job: NewJob): Promise<void> {
    const now = Date.now();
    await this.db
      .insertInto('jobs')
      .values({
        name: job.name,
        payload: JSON.stringify(job.payload),
        priority: job.priority,
        status: 'queued',
        attempts: 0,
        max_attempts: job.maxAttempts,
        run_at: job.runAt,
        locked_by: null,
        locked_until: null,
        last_error: null,
        fair_key: job.fairKey,
        fair_rank: await this.fairRank(job.name, job.fairKey),
        created_at: now,
        updated_at: now,
      })
      .execute();
  }

  /**
   * Fair order between uploaders: one past the key's last waiting or running job of this name, and
   * never below the lowest rank still waiting, so a newcomer queues behind one job of each waiting
   * uploader rather than behind all twenty of one. Two enqueues racing may share a rank: harmless.
   */
  private async fairRank(name: JobName, fairKey: string | null): Promise<number> {
    const waiting = await this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.min('fair_rank').as('low'))
      .where('name', '=', name)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    const low = waiting?.low == null ? 0 : Number(waiting.low);
    if (fairKey === null) return low;
    const own = await this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.max('fair_rank').as('high'))
      .where('name', '=', name)
      .where('fair_key', '=', fairKey)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirst();
    return Math.max(low, own?.high == null ? 0 : Number(own.high) + 1);
  }

  /**
   * Takes the most urgent due job in one statement: a queued job whose time has come, or a running
   * one whose lease lapsed. On PostgreSQL, SKIP LOCKED lets concurrent claimers pass each other by.
   */
  async claim(names: JobName[], leaseMs: number): Promise<JobRow | undefined> {
    const now = Date.now();
    let candidate = this.db
      .selectFrom('jobs')
      .select('id')
      .where('name', 'in', names)
      .where((eb) =>
        eb.or([eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)]), eb.and([eb('status', '=', 'running'), eb('locked_until', '<', now)])]),
      )
      .orderBy('priority')
      .orderBy('fair_rank')
      .orderBy('run_at')
      .orderBy('id')
      .limit(1);
    if (this.dialect === 'postgres') candidate = candidate.forUpdate().skipLocked();
    return this.db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'running',
        attempts: eb('attempts', '+', 1),
        locked_by: this.workerId,
        locked_until: now + leaseMs,
        updated_at: now,
      }))
      .where('id', '=', candidate)
      .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('locked_until', '<', now)])]))
      .returningAll()
      .executeTakeFirst();
  }

  /** Extends this worker's lease; false when the job is no longer this worker's. */
  async renew(id: number, leaseMs: number): Promise<boolean> {
    const now = Date.now();
    const res = await this.db
      .updateTable('jobs')
      .set({ locked_until: now + leaseMs, updated_at: now })
      .where('id', '=', id)
      .where('locked_by', '=', this.workerId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async markDone(id: number): Promise<void> {
    await this.mine(id).set({ status: 'done', locked_by: null, locked_until: null, updated_at: Date.now() }).execute();
  }

  async markFailed(id: number, message: string): Promise<void> {
    await this.mine(id).set({ status: 'failed', locked_by: null, locked_until: null, last_error: message, updated_at: Date.now() }).execute();
  }

  /** Queued again after a failed attempt, due at runAt. */
  async retryAt(id: number, runAt: number, message: string): Promise<void> {
    await this.mine(id).set({ status: 'queued', run_at: runAt, locked_by: null, locked_until: null, last_error: message, updated_at: Date.now() }).execute();
  }

  /** Queued again at once with the attempt given back: the stop was not the job's fault. */
  async putBack(id: number): Promise<void> {
    const now = Date.now();
    await this.mine(id)
      .set((eb) => ({ status: 'queued', attempts: eb('attempts', '-', 1), run_at: now, locked_by: null, locked_until: null, updated_at: now }))
      .execute();
  }

  /** Deletes settled jobs older than their keep times. */
  async prune(keepDoneMs: number, keepFailedMs: number): Promise<void> {
    const now = Date.now();
    await this.db
      .deleteFrom('jobs')
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'done'), eb('updated_at', '<', now - keepDoneMs)]),
          eb.and([eb('status', '=', 'failed'), eb('updated_at', '<', now - keepFailedMs)]),
        ]),
      )
      .execute();
  }

  private mine(id: number) {
    return this.db.updateTable('jobs').where('id', '=', id).where('locked_by', '=', this.workerId);
  }
}
