import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** How many distinct statements a connection keeps prepared: the site asks a few hundred. */
const KEPT_STATEMENTS = 500;

/**
 * The main SQLite connection as Kysely sees it, keeping the statements it prepares. Kysely's driver
 * prepares every query again, though the site asks the same few hundred statements over and over;
 * preparing a list's page query costs about 0.1 ms, a noticeable part of a request that reads
 * through an index. (The read workers keep theirs the same way.) A statement still being iterated by
 * a streamed query is busy: a second caller gets a statement of its own.
 */
export function keepingStatements(db: SQLite.Database): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => db.close(),
    prepare(sql: string) {
      const known = kept.get(sql);
      if (known && !known.busy) return known;
      const stmt = db.prepare(sql);
      if (kept.size >= KEPT_STATEMENTS) kept.clear();
      kept.set(sql, stmt);
      return stmt;
    },
  };
}
