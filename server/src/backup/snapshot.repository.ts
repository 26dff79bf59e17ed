import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db/dialect.js';
import type { Database } from '../db/schema.js';

/**
 * What a backup reads from a database snapshot and what a restore asks of its target: tables and
 * their row counts, the ids that own media, the schema version, SQLite's integrity check, and
 * PostgreSQL's exported snapshot. A backup may be of an older schema than today's, so the tables
 * are named by text rather than through the typed schema.
 */
export class SnapshotRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /** The tables that hold rows (SQLite's virtual tables are left out: their shadow tables hold the rows). */
  async tableNames(): Promise<string[]> {
    const rows =
      this.dialect === 'sqlite'
        ? await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            AND coalesce(sql, '') NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name`.execute(this.db)
        : await sql<{ name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`.execute(this.db);
    return rows.rows.map((r) => r.name);
  }

  async rowCounts(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of await this.tableNames()) {
      const row = await sql<{ n: number | string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(this.db);
      counts[table] = Number(row.rows[0]!.n);
    }
    return counts;
  }

  /** The ids of the rows that own a media prefix (`videos/<id>/`, `users/<id>/`). */
  async ids(table: 'videos' | 'users'): Promise<string[]> {
    const rows = await sql<{ id: string }>`SELECT id FROM ${sql.table(table)}`.execute(this.db);
    return rows.rows.map((r) => r.id);
  }

  /** The name of the last migration applied, or null on a database never migrated. */
  async schemaVersion(): Promise<string | null> {
    if (!(await this.tableNames()).includes('kysely_migration')) return null;
    const row = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY timestamp DESC, name DESC LIMIT 1`.execute(this.db);
    return row.rows[0]?.name ?? null;
  }

  /** PostgreSQL, inside a repeatable-read transaction: names its snapshot so pg_dump can read the same one. */
  async exportSnapshot(): Promise<string> {
    const row = await sql<{ snapshot: string }>`SELECT pg_export_snapshot() AS snapshot`.execute(this.db);
    return row.rows[0]!.snapshot;
  }

  /** PostgreSQL: empties the schema the site's tables live in, for a forced restore. */
  async dropEverything(): Promise<void> {
    await sql`DROP SCHEMA public CASCADE`.execute(this.db);
    await sql`CREATE SCHEMA public`.execute(this.db);
  }
}
