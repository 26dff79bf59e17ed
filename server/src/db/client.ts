import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteAdapter, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import type { Dialect } from './dialect.js';
import { type BeforeMigrating, migrateToLatest } from './migrations.js';
import { preparingPool } from './postgres-prepared.js';
import { sqliteDialectWithReadPool } from './sqlite-read-pool.js';
import { keepingStatements } from './sqlite-statements.js';
import type { Database } from './schema.js';
import { postgresStartUpLock, type StartUpLock, sqliteStartUpLock } from './start-up-lock.js';

export type { Dialect };
export type Db = Kysely<Database>;
export interface DbHandle {
  db: Db;
  dialect: Dialect;
  /**
   * A connection of its own for the healthcheck, so its probe never waits behind the queries queued
   * for the others (a busy pool, a slow read on every read worker). It is opened on first use.
   */
  probe(): Db;
  /** Runs start-up writes (migrations, first rows) one process at a time: see start-up-lock.ts. */
  withStartUpLock: StartUpLock;
  close(): Promise<void>;
}

// bigint columns hold epoch milliseconds and counters: well inside Number's safe range.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

/**
 * SQLite rolls DDL back with the rest of a transaction, but Kysely's adapter says it cannot, and its
 * Migrator then runs migrations outside any transaction: a failure half-way left half a migration.
 */
class SqliteAdapterWithTransactionalDdl extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

export async function openDatabase(
  config: { database: Config['database'] | { kind: 'sqlite'; file: string; readWorkers?: number } },
  opts: { migrate?: boolean; beforeMigrating?: BeforeMigrating; onIdleError?: (err: Error) => void } = {},
): Promise<DbHandle> {
  let db: Db;
  let dialect: Dialect;
  let openProbe: () => Db;
  let withStartUpLock: StartUpLock;
  if (config.database.kind === 'postgres') {
    dialect = 'postgres';
    const { url } = config.database;
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // An idle connection the server closed (restart, failover) is dropped from the pool; it must
    // not take the process down. Queries in flight still get their own error.
    pool.on('error', (err) => opts.onIdleError?.(err));
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) });
    openProbe = () => {
      const probePool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 5000 });
      probePool.on('error', (err) => opts.onIdleError?.(err));
      return new Kysely<Database>({ dialect: new PostgresDialect({ pool: probePool }) });
    };
    withStartUpLock = postgresStartUpLock(db);
  } else {
    dialect = 'sqlite';
    const { file } = config.database;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    const readWorkers = config.database.readWorkers ?? 0;
    const database = keepingStatements(sqlite);
    const sqliteDialect = readWorkers > 0 ? sqliteDialectWithReadPool(database, file, readWorkers) : new SqliteDialect({ database });
    sqliteDialect.createAdapter = () => new SqliteAdapterWithTransactionalDdl();
    db = new Kysely<Database>({ dialect: sqliteDialect });
    // A read-only connection on this thread: a WAL reader never waits for the writer.
    openProbe = () => new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(file, { readonly: true, fileMustExist: true }) }) });
    withStartUpLock = sqliteStartUpLock(file);
  }
  let probe: Db | null = null;
  const handle: DbHandle = {
    db,
    dialect,
    withStartUpLock,
    probe: () => (probe ??= openProbe()),
    close: async () => {
      await probe?.destroy();
      await db.destroy();
    },
  };
  // Any process may open the database while others start: migrations are start-up writes too.
  if (opts.migrate !== false) await withStartUpLock(() => migrateToLatest(db, dialect, { beforeMigrating: opts.beforeMigrating }));
  return handle;
}
