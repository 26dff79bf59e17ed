import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Config } from '../config.js';
import type { DbHandle } from '../db/client.js';
import type { Database } from '../db/schema.js';
import { runPgTool } from '../db/pg-tools.js';
import { SnapshotRepository } from './snapshot.repository.js';
import { copySqlite } from './sqlite-copy.js';

export interface DatabaseSnapshot {
  kind: 'sqlite' | 'postgres';
  /** The file's name inside the backup folder. */
  file: string;
  rows: Record<string, number>;
  schema: string | null;
  /** The owners of media in the snapshot: every file under their prefixes belongs in the backup. */
  videoIds: string[];
  userIds: string[];
}

export const SQLITE_FILE = 'database.sqlite';
export const PGDUMP_FILE = 'database.pgdump';

/**
 * Copies the database into `dir` as of one moment, while the site keeps writing, and reads what the
 * rest of the backup needs from that same moment.
 */
export async function snapshotDatabase(database: DbHandle, config: Config['database'], dir: string): Promise<DatabaseSnapshot> {
  return config.kind === 'sqlite'
    ? snapshotSqlite(config.file, path.join(dir, SQLITE_FILE))
    : snapshotPostgres(database, config.url, path.join(dir, PGDUMP_FILE));
}

/**
 * SQLite's online backup API, in a thread of its own (sqlite-copy.ts), then what the rest of the
 * backup needs read from the copy: the same moment's rows.
 */
async function snapshotSqlite(source: string, target: string): Promise<DatabaseSnapshot> {
  await copySqlite(source, target);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(target, { readonly: true }) }) });
  try {
    return { kind: 'sqlite', file: SQLITE_FILE, ...(await readSnapshot(new SnapshotRepository(db, 'sqlite'))) };
  } finally {
    await db.destroy();
  }
}

/**
 * A repeatable-read transaction exports its snapshot, pg_dump dumps that very snapshot, and the
 * counts and ids are read in the same transaction: all of it is one moment's database.
 */
async function snapshotPostgres(database: DbHandle, url: string, target: string): Promise<DatabaseSnapshot> {
  return database.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const repo = new SnapshotRepository(trx, 'postgres');
      const snapshot = await repo.exportSnapshot();
      await runPgTool('pg_dump', url, ['--format=custom', `--snapshot=${snapshot}`, `--file=${target}`]);
      return { kind: 'postgres' as const, file: PGDUMP_FILE, ...(await readSnapshot(repo)) };
    });
}

async function readSnapshot(repo: SnapshotRepository) {
  return { rows: await repo.rowCounts(), schema: await repo.schemaVersion(), videoIds: await repo.ids('videos'), userIds: await repo.ids('users') };
}
