import fs from 'node:fs/promises';
import { Cron } from 'croner';
import type { JobHandlers, JobQueue } from '../../jobs/job-types.js';
import type { QueueLogger } from '../../jobs/queue-options.js';
import type { BackupRunsRepository } from '../../backup/backup-runs.repository.js';

/** What the backup jobs need of the record of backups. */
export type BackupRunsStore = Pick<BackupRunsRepository, 'list' | 'markRemoved'>;

/**
 * Takes one backup into the backup dir and records it; null when `slot` was already taken by
 * another process (each scheduled turn is taken once, whichever process gets there first).
 */
export type TakeBackup = (opts: {
  trigger: 'manual' | 'scheduled';
  slot?: number;
}) => Promise<{ id: string; path: string; bytes: number; tookMs: number } | null>;

export interface BackupJobsDeps {
  queue: Pick<JobQueue, 'enqueue'>;
  take: TakeBackup;
  runs: BackupRunsStore;
  /** BACKUP_CRON; null schedules nothing. */
  cron: string | null;
  /** BACKUP_KEEP: good scheduled backups kept; older ones are removed after each good one. */
  keep: number;
  logger: QueueLogger;
}

/** How far back retention looks: far more backups than anyone keeps. */
const RETENTION_WINDOW = 1000;

/**
 * Scheduled and on-demand backups as jobs, so they run in whichever process runs jobs (the API
 * process by default, the workers when scaled out) and never in a request.
 *
 * Every process that runs jobs follows BACKUP_CRON and asks for `backup.scheduled` with the turn's
 * time as its `slot`; the record of backups takes each slot once, so with several workers one of
 * them backs up and the others find the turn taken. A turn missed while nothing ran is not made up:
 * the next one follows.
 */
export class BackupJobs {
  constructor(private readonly deps: BackupJobsDeps) {}

  handlers(): JobHandlers {
    return {
      'backup.scheduled': async ({ slot }) => {
        await this.scheduled(slot);
      },
      'backup.manual': async () => {
        await this.manual();
      },
    };
  }

  async scheduled(slot: number): Promise<'taken' | 'already'> {
    const done = await this.deps.take({ trigger: 'scheduled', slot });
    if (!done) return 'already';
    this.deps.logger.info({ path: done.path, bytes: done.bytes, tookMs: done.tookMs }, 'scheduled backup done');
    await this.removeBeyondKeep();
    return 'taken';
  }

  async manual(): Promise<void> {
    const done = await this.deps.take({ trigger: 'manual' });
    if (done) this.deps.logger.info({ path: done.path, bytes: done.bytes, tookMs: done.tookMs }, 'backup done');
  }

  /**
   * Removes the good scheduled backups beyond the newest `keep`. Failed ones hold nothing worth
   * keeping (their folder never got its final name), and backups taken by hand or before a
   * migration are the operator's to remove.
   */
  async removeBeyondKeep(): Promise<number> {
    const kept = (await this.deps.runs.list(RETENTION_WINDOW)).filter((r) => r.trigger === 'scheduled' && r.status === 'ok' && r.removed_at === null);
    let removed = 0;
    for (const old of kept.slice(this.deps.keep)) {
      try {
        await fs.rm(old.path, { recursive: true, force: true });
        await this.deps.runs.markRemoved(old.id);
        removed += 1;
      } catch (err) {
        this.deps.logger.error({ err, path: old.path }, 'could not remove an old backup');
      }
    }
    if (removed) this.deps.logger.info({ removed, keep: this.deps.keep }, 'old scheduled backups removed');
    return removed;
  }

  /** When the next scheduled backup is due, or null when none is scheduled. */
  next(): Date | null {
    return nextBackupAt(this.deps.cron);
  }

  /** Asks for a backup at every turn of BACKUP_CRON; the returned function stops asking. */
  schedule(): () => void {
    const pattern = this.deps.cron;
    if (!pattern) return () => {};
    const cron = new Cron(pattern, { protect: true, unref: true }, () => {
      const slot = slotOf(pattern, Date.now());
      // One attempt: a failed backup is reported, and the next turn tries again.
      this.deps.queue
        .enqueue('backup.scheduled', { slot }, { maxAttempts: 1 })
        .catch((err) => this.deps.logger.error({ err }, 'could not ask for a scheduled backup'));
    });
    return () => cron.stop();
  }
}

/**
 * The turn a firing belongs to, the same in every process: the minute it fired in (the second, for a
 * pattern with a seconds field), so processes whose clocks fire a few milliseconds apart agree.
 */
export function slotOf(pattern: string, now: number): number {
  const unit = pattern.trim().split(/\s+/).length >= 6 ? 1000 : 60_000;
  return Math.floor(now / unit) * unit;
}

/** When a backup is next due by a BACKUP_CRON pattern (in this process's clock and time zone), or null for none. */
export function nextBackupAt(pattern: string | null, from = new Date()): Date | null {
  if (!pattern) return null;
  const cron = new Cron(pattern, { paused: true });
  const next = cron.nextRun(from);
  cron.stop();
  return next;
}
