import fs from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { BeforeMigrating } from './migrations.js';
import { runPgTool } from './pg-tools.js';

/** A backup taken before migrating, for the record of backups once the migrations have made it. */
export interface BackupBeforeMigration {
  dir: string;
  startedAt: number;
  finishedAt: number;
  bytes: number;
}

/**
 * With BACKUP_BEFORE_MIGRATE, a start about to migrate a database that already holds data copies it
 * into `<BACKUP_DIR>/reelhouse-<UTC time>-before-migration/` first: there are no down-migrations,
 * so going back to the older version is restoring that copy. A new database has nothing to keep.
 * A backup that fails stops the start before anything is migrated.
 */
export function backupBeforeMigrating(
  config: { database: Config['database']; backups: Pick<Config['backups'], 'dir' | 'beforeMigrate'> },
  logger: Logger,
  now = () => new Date(),
  /** Told of the backup once it is written. */
  taken?: (backup: BackupBeforeMigration) => void,
): BeforeMigrating | undefined {
  if (!config.backups.beforeMigrate) return undefined;
  return async ({ pending, applied }) => {
    if (!applied.length) return;
    const started = now();
    const dir = path.join(config.backups.dir, `reelhouse-${utcStamp(started)}-before-migration`);
    let file: string;
    try {
      file = await backUp(config.database, dir);
    } catch (err) {
      await fs.rm(dir, { recursive: true, force: true }).catch(() => {});
      throw new Error(`Database backup before migrating failed: ${reasonOf(err)}; nothing was migrated`);
    }
    logger.info({ backup: file, pending }, 'database backed up before migrating');
    taken?.({ dir, startedAt: started.getTime(), finishedAt: Math.max(started.getTime(), now().getTime()), bytes: (await fs.stat(file)).size });
  };
}

/** Writes the copy under a temporary name, so a file with the final name is always a whole copy. */
async function backUp(database: Config['database'], dir: string): Promise<string> {
  // The copy holds password hashes and the token-signing secret: for the server's user only.
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, database.kind === 'sqlite' ? 'database.sqlite' : 'database.pgdump');
  const partial = `${file}.partial`;
  if (database.kind === 'sqlite') {
    // SQLite's online backup API: a consistent copy, whatever is in the WAL, where copying the file
    // could catch it between two writes.
    const source = new SQLite(database.file, { fileMustExist: true });
    try {
      await source.backup(partial);
    } finally {
      source.close();
    }
  } else {
    await runPgTool('pg_dump', database.url, ['--format=custom', `--file=${partial}`]);
  }
  await fs.rename(partial, file);
  return file;
}

/** 20261127-031500 */
function utcStamp(at: Date): string {
  return at
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
}

function reasonOf(err: unknown): string {
  const e = err as Error;
  return (e.message || String(err)).replace(/\s*\n\s*/g, ' ');
}
