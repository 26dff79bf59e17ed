import { z } from 'zod';
import { IsoDate } from './common.js';

export const BACKUP_TRIGGERS = ['manual', 'scheduled', 'before-migration'] as const;
export const BACKUP_STATUSES = ['running', 'ok', 'failed'] as const;

/** One backup as the admin area reports it: taken by hand, on schedule, or before a start migrated the database. */
export const AdminBackup = z.object({
  _id: z.string(),
  trigger: z.enum(BACKUP_TRIGGERS),
  status: z.enum(BACKUP_STATUSES),
  /** The backup's folder on the machine that took it. */
  path: z.string(),
  startedAt: IsoDate,
  finishedAt: IsoDate.nullable(),
  /** How long it took, once finished. */
  tookMs: z.number().int().nullable(),
  /** Size of what it wrote (media hard-linked from the data dir counts in full). */
  bytes: z.number().int().nullable(),
  /** Why it failed ("interrupted" when its process died before it finished). */
  error: z.string().nullable(),
  /** Removed since, as one of the oldest scheduled backups beyond BACKUP_KEEP. */
  removed: z.boolean(),
});
export type AdminBackup = z.infer<typeof AdminBackup>;

export const AdminBackups = z.object({
  schedule: z.object({
    /** BACKUP_CRON, or null when no backup is scheduled. */
    cron: z.string().nullable(),
    /** When the next scheduled backup is due, by this process's clock and settings. */
    next: IsoDate.nullable(),
    /** BACKUP_KEEP: scheduled backups kept. */
    keep: z.number().int(),
    /** BACKUP_DIR as this process sees it. */
    dir: z.string(),
  }),
  /** The latest good one, or null when none has succeeded yet. */
  lastGood: AdminBackup.nullable(),
  /** Newest first. */
  backups: z.array(AdminBackup),
});
export type AdminBackups = z.infer<typeof AdminBackups>;
