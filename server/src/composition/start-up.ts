import type { Logger } from 'pino';
import { BackupRunsRepository } from '../backup/backup-runs.repository.js';
import type { Config } from '../config.js';
import type { DbHandle } from '../db/client.js';
import { migrateToLatest } from '../db/migrations.js';
import { type BackupBeforeMigration, backupBeforeMigrating } from '../db/pre-migrate-backup.js';
import { ownerTag } from '../lib/process-owner.js';

/**
 * A process's start-up work on the shared database: the migrations, then `work`, the rows the site
 * needs before anyone uses it (an API process: the site's id and signing secret, the demo account
 * and the ADMIN_EMAILS grants; a worker: the site's id).
 *
 * A deploy may start every API process and worker at the same moment on a fresh database. Each
 * step is written to be repeatable, but several of them look and then write ("no demo account yet,
 * so insert it"; on SQLite, which has no migration lock, "no migration has run yet, so create the
 * tables"), and two processes looking at once would both write, and one would crash on the other's
 * row. So the whole of it runs under one cross-process lock: the first process does the work, and
 * each of the others, in its turn, finds it done and goes on. The work is a few quick writes once
 * the first process has made the tables, so the turns cost milliseconds. Only the process that finds
 * migrations to apply backs the database up first (BACKUP_BEFORE_MIGRATE), and records that backup
 * with the others once the migrations have made their table, so the admin area lists it.
 */
export async function runStartUpWork<T>(config: Pick<Config, 'database' | 'backups'>, database: DbHandle, logger: Logger, work: () => Promise<T>): Promise<T> {
  return database.withStartUpLock(
    async () => {
      let taken: BackupBeforeMigration | null = null;
      const beforeMigrating = backupBeforeMigrating(config, logger, undefined, (backup) => (taken = backup));
      await migrateToLatest(database.db, database.dialect, { beforeMigrating });
      if (taken) await recordBackup(database, taken);
      return work();
    },
    () => logger.info('waiting for another process to finish its start-up work'),
  );
}

async function recordBackup(database: DbHandle, backup: BackupBeforeMigration): Promise<void> {
  const runs = new BackupRunsRepository(database.db);
  const id = await runs.start({ trigger: 'before-migration', path: backup.dir, owner: ownerTag(), now: backup.startedAt });
  if (id) await runs.finish(id, { bytes: backup.bytes, path: backup.dir }, backup.finishedAt);
}
