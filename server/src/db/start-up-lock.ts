import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

/**
 * Runs `work` while this process holds the site's start-up lock, which every process of the site
 * (API processes, workers, the admin command line) takes for its start-up writes, so that they
 * take turns. `onWait` is told once when another process holds it. A process that dies holding it
 * lets it go with its connection (PostgreSQL) or its file lock (SQLite).
 */
export type StartUpLock = <T>(work: () => Promise<T>, onWait?: () => void) => Promise<T>;

/** The PostgreSQL advisory lock's key, apart from the other advisory locks of the code and Kysely's. */
const START_UP_LOCK = 310001;
/** How often a waiting SQLite process tries the lock again. */
const SQLITE_RETRY_MS = 25;

/**
 * PostgreSQL: a session-level advisory lock, held on one connection of the pool for the whole of
 * the work while the work itself runs on the others. Waiting for it is PostgreSQL's own queue.
 */
export function postgresStartUpLock(db: Kysely<Database>): StartUpLock {
  return (work, onWait) =>
    db.connection().execute(async (conn) => {
      const tried = await sql<{ got: boolean }>`select pg_try_advisory_lock(${sql.lit(START_UP_LOCK)}) as got`.execute(conn);
      if (!tried.rows[0]?.got) {
        onWait?.();
        await sql`select pg_advisory_lock(${sql.lit(START_UP_LOCK)})`.execute(conn);
      }
      try {
        return await work();
      } finally {
        await sql`select pg_advisory_unlock(${sql.lit(START_UP_LOCK)})`.execute(conn);
      }
    });
}

/**
 * SQLite: an exclusive transaction on a small file of its own beside the database. Not the
 * database's own write lock: the work writes through this process's connection to the database,
 * which would then wait on its own lock. The wait polls instead of using SQLite's busy timeout,
 * which would block the event loop.
 */
export function sqliteStartUpLock(databaseFile: string): StartUpLock {
  return async (work, onWait) => {
    const lock = new SQLite(`${databaseFile}.start-up-lock`, { timeout: 0 });
    try {
      for (let told = false; ;) {
        try {
          lock.exec('BEGIN EXCLUSIVE');
          break;
        } catch (err) {
          if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
          if (!told) onWait?.();
          told = true;
          await new Promise((r) => setTimeout(r, SQLITE_RETRY_MS));
        }
      }
      return await work();
    } finally {
      // Closing ends the transaction, which lets the lock go.
      lock.close();
    }
  };
}
