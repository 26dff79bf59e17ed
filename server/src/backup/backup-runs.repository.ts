import type { Db } from '../db/client.js';
import type { Database } from '../db/schema.js';
import { newId } from '../lib/ids.js';
import { ownerGone } from '../lib/process-owner.js';

export type BackupRun = Database['backup_runs'];
export type BackupTrigger = BackupRun['trigger'];

/** The record of backups taken, and of the one running. */
export class BackupRunsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Records a backup that starts now. Answers null when `slot` is already taken: another process
   * took this scheduled turn, which is not an error.
   */
  async start(run: { trigger: BackupTrigger; path: string; owner: string; slot?: number | null; now?: number }): Promise<string | null> {
    const id = newId();
    try {
      await this.db
        .insertInto('backup_runs')
        .values({
          id,
          trigger: run.trigger,
          status: 'running',
          path: run.path,
          slot: run.slot ?? null,
          owner: run.owner,
          started_at: run.now ?? Date.now(),
          finished_at: null,
          bytes: null,
          error: null,
          removed_at: null,
        })
        .execute();
    } catch (err) {
      if (run.slot != null && isUniqueViolation(err)) return null;
      throw err;
    }
    return id;
  }

  async finish(id: string, done: { bytes: number; path: string }, now = Date.now()): Promise<void> {
    await this.db
      .updateTable('backup_runs')
      .set({ status: 'ok', bytes: done.bytes, path: done.path, finished_at: now, error: null })
      .where('id', '=', id)
      .execute();
  }

  async fail(id: string, error: string, now = Date.now()): Promise<void> {
    await this.db.updateTable('backup_runs').set({ status: 'failed', error, finished_at: now }).where('id', '=', id).execute();
  }

  /** Newest first. */
  async list(limit: number): Promise<BackupRun[]> {
    return this.db.selectFrom('backup_runs').selectAll().orderBy('started_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  async get(id: string): Promise<BackupRun | undefined> {
    return this.db.selectFrom('backup_runs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async markRemoved(id: string, now = Date.now()): Promise<void> {
    await this.db.updateTable('backup_runs').set({ removed_at: now }).where('id', '=', id).where('removed_at', 'is', null).execute();
  }

  /**
   * Runs still 'running' whose process is gone were interrupted: they become 'failed', so that a
   * killed backup is never taken for a good one. Runs of live processes, or of processes on other
   * machines, are left alone. Answers how many were marked.
   */
  async failInterrupted(now = Date.now(), gone: (owner: string) => boolean = ownerGone): Promise<number> {
    const running = await this.db.selectFrom('backup_runs').select(['id', 'owner']).where('status', '=', 'running').execute();
    const ids = running.filter((r) => gone(r.owner)).map((r) => r.id);
    if (ids.length === 0) return 0;
    await this.db
      .updateTable('backup_runs')
      .set({ status: 'failed', error: 'interrupted', finished_at: now })
      .where('id', 'in', ids)
      .where('status', '=', 'running')
      .execute();
    return ids.length;
  }
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}
