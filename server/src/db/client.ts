import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import type { Dialect } from './dialect.js';
import { migrateToLatest } from './migrations.js';
import { sqliteDialectWithReadPool } from './sqlite-read-pool.js';
import { keepingStatements } from './sqlite-statements.js';
import type { Database } from './schema.js';
import { postgresStartUpLock, type StartUpLock, sqliteStartUpLock } from './start-up-lock.js';

export type { Dialect };
export type Db = Kysely<Database>;
export interface DbHandle {
  db: Db;
  dialect: Dialect;
  /** Runs start-up writes (migrations, first rows) one process at a time: see start-up-lock.ts. */
  withStartUpLock: StartUpLock;
  close(): Promise<void>;
}

// bigint columns hold epoch milliseconds and counters: well inside Number's safe range.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

export async function openDatabase(
  config: { database: Config['database'] | { kind: 'sqlite'; file: string; readWorkers?: number } },
  opts: { migrate?: boolean; onIdleError?: (err: Error) => void } = {},
): Promise<DbHandle> {
  let db: Db;
  let dialect: Dialect;
  let withStartUpLock: StartUpLock;
  if (config.database.kind === 'postgres') {
    dialect = 'postgres';
    const pool = new pg.Pool({ connectionString: config.database.url, max: 10 });
    // An idle connection the server closed (restart, failover) is dropped from the pool; it must
    // not take the process down. Queries in flight still get their own error.
    pool.on('error', (err) => opts.onIdleError?.(err));
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    withStartUpLock = postgresStartUpLock(db);
  } else {
    dialect = 'sqlite';
    fs.mkdirSync(path.dirname(config.database.file), { recursive: true });
    const sqlite = new SQLite(config.database.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    const readWorkers = config.database.readWorkers ?? 0;
    const database = keepingStatements(sqlite);
    db = new Kysely<Database>({
      dialect: readWorkers > 0 ? sqliteDialectWithReadPool(database, config.database.file, readWorkers) : new SqliteDialect({ database }),
    });
    withStartUpLock = sqliteStartUpLock(config.database.file);
  }
  const handle: DbHandle = { db, dialect, withStartUpLock, close: () => db.destroy() };
  // Any process may open the database while others start: migrations are start-up writes too.
  if (opts.migrate !== false) await withStartUpLock(() => migrateToLatest(db, dialect));
  return handle;
}
