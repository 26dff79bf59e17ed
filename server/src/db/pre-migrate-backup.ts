import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { BeforeMigrating } from './migrations.js';

const PG_DUMP = '/usr/bin/pg_dump';

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
): BeforeMigrating | undefined {
  if (!config.backups.beforeMigrate) return undefined;
  return async ({ pending, applied }) => {
    if (!applied.length) return;
    const dir = path.join(config.backups.dir, `reelhouse-${utcStamp(now())}-before-migration`);
    let file: string;
    try {
      file = await backUp(config.database, dir);
    } catch (err) {
      await fs.rm(dir, { recursive: true, force: true }).catch(() => {});
      throw new Error(`Database backup before migrating failed: ${reasonOf(err)}; nothing was migrated`);
    }
    logger.info({ backup: file, pending }, 'database backed up before migrating');
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
    // The password goes through the environment, not the command line other users can read.
    const url = new URL(database.url);
    const password = decodeURIComponent(url.password);
    url.password = '';
    await promisify(execFile)(PG_DUMP, ['--format=custom', `--file=${partial}`, `--dbname=${url.toString()}`], {
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
      maxBuffer: 4 * 1024 * 1024,
    });
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
  const e = err as NodeJS.ErrnoException & { stderr?: string };
  if (e.code === 'ENOENT' && e.path === PG_DUMP) return `${PG_DUMP} was not found (install the PostgreSQL client)`;
  const text = e.stderr?.trim() || e.message || String(err);
  return text.replace(/\s*\n\s*/g, ' ');
}
