import type { AdminBackup, AdminBackups } from '@reelhouse/contract';
import type { AuthUser } from '../../http/auth.js';
import { conflict } from '../../http/errors.js';
import { toIso } from '../../lib/ids.js';
import type { JobQueue } from '../../jobs/job-types.js';
import type { AuditLogRepository } from '../audit/audit-log.repository.js';
import type { BackupRun } from '../../backup/backup-runs.repository.js';
import type { BackupRunsStore } from './backup-jobs.js';

/** Backups shown in the admin area. */
const LISTED = 20;

export interface BackupsServiceDeps {
  runs: Pick<BackupRunsStore, 'list'>;
  queue: Pick<JobQueue, 'enqueue'>;
  audit: Pick<AuditLogRepository, 'record'>;
  /** When the next scheduled backup is due. */
  next(): Date | null;
  settings: { cron: string | null; keep: number; dir: string };
  /** The clock; tests inject one. */
  now?: () => number;
}

/** Backups as admins see them: the schedule, the latest runs, and a backup taken on request. */
export class BackupsService {
  constructor(private readonly deps: BackupsServiceDeps) {}

  async overview(): Promise<AdminBackups> {
    const runs = await this.deps.runs.list(LISTED);
    const lastGood = runs.find((r) => r.status === 'ok') ?? (await this.deps.runs.list(1000)).find((r) => r.status === 'ok') ?? null;
    const next = this.deps.next();
    const { cron, keep, dir } = this.deps.settings;
    return {
      schedule: { cron, next: next ? next.toISOString() : null, keep, dir },
      lastGood: lastGood ? presentBackup(lastGood) : null,
      backups: runs.map(presentBackup),
    };
  }

  /**
   * Queues a backup in the process that runs jobs; refused while one is running, so a second click
   * cannot start a second copy of the whole site.
   */
  async startNow(admin: AuthUser): Promise<void> {
    const [latest] = await this.deps.runs.list(LISTED).then((runs) => runs.filter((r) => r.status === 'running'));
    if (latest) throw conflict('A backup is already running');
    const requestedAt = (this.deps.now ?? Date.now)();
    await this.deps.queue.enqueue('backup.manual', { by: admin.id, requestedAt }, { maxAttempts: 1 });
    await this.deps.audit.record(
      { id: admin.id, username: admin.username },
      { action: 'backup.start', target: { type: 'backup', id: String(requestedAt) }, details: {} },
    );
  }
}

function presentBackup(r: BackupRun): AdminBackup {
  const started = Number(r.started_at);
  const finished = r.finished_at === null ? null : Number(r.finished_at);
  return {
    _id: r.id,
    trigger: r.trigger,
    status: r.status,
    path: r.path,
    startedAt: toIso(started),
    finishedAt: finished === null ? null : toIso(finished),
    tookMs: finished === null ? null : finished - started,
    bytes: r.bytes === null ? null : Number(r.bytes),
    error: r.error,
    removed: r.removed_at !== null,
  };
}
