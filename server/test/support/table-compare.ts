import SQLite from 'better-sqlite3';
import pg from 'pg';

/**
 * Reads of a SQLite file and a PostgreSQL database side by side, for checking a move between them:
 * the tables, their row counts, and rows compared column by column, looked up by primary key.
 */
export class TablePair {
  private constructor(
    private readonly sqlite: SQLite.Database,
    private readonly pg: pg.Client,
  ) {}

  static async open(file: string, url: string): Promise<TablePair> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return new TablePair(new SQLite(file, { readonly: true, fileMustExist: true }), client);
  }

  /** SQLite's own tables: not FTS5's virtual and shadow tables, SQLite's or Kysely's bookkeeping. */
  sqliteTables(): string[] {
    return (this.sqlite.prepare('PRAGMA main.table_list').all() as { name: string; type: string }[])
      .filter((t) => t.type === 'table' && !t.name.startsWith('sqlite_') && !t.name.startsWith('kysely_'))
      .map((t) => t.name)
      .sort();
  }

  async pgTables(): Promise<string[]> {
    const { rows } = await this.pg.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename NOT LIKE 'kysely_%' ORDER BY 1`,
    );
    return rows.map((r) => r.name);
  }

  async counts(tables: string[]): Promise<{ sqlite: Record<string, number>; pg: Record<string, number> }> {
    const sqlite: Record<string, number> = {};
    for (const t of tables) sqlite[t] = (this.sqlite.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n;
    return { sqlite, pg: await this.pgCounts(tables) };
  }

  /** PostgreSQL's own triggers that are switched off. */
  async disabledTriggers(): Promise<string[]> {
    const { rows } = await this.pg.query<{ name: string }>(`SELECT tgname AS name FROM pg_trigger WHERE NOT tgisinternal AND tgenabled = 'D' ORDER BY 1`);
    return rows.map((r) => r.name);
  }

  async pgCounts(tables: string[]): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const t of tables) out[t] = Number((await this.pg.query<{ n: string }>(`SELECT count(*) AS n FROM "${t}"`)).rows[0]!.n);
    return out;
  }

  /**
   * Up to `sample` rows of a table, spread over it, each with the differences found in the same row
   * on PostgreSQL (found by primary key): `missing` when there is none there.
   */
  async differences(table: string, sample: number): Promise<string[]> {
    const columns = this.sqlite.prepare(`PRAGMA main.table_info("${table}")`).all() as { name: string; pk: number }[];
    const key = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    const keyColumns = (key.length ? key : columns).map((c) => c.name);
    const total = (this.sqlite.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
    const step = Math.max(1, Math.floor(total / sample));
    const rows = this.sqlite
      .prepare(`SELECT * FROM (SELECT *, row_number() OVER (ORDER BY rowid) AS rn__ FROM "${table}") WHERE (rn__ - 1) % ? = 0 LIMIT ?`)
      .all(step, sample) as Record<string, unknown>[];
    const found: string[] = [];
    for (const row of rows) {
      const where = keyColumns.map((c, i) => `"${c}" = $${i + 1}`).join(' AND ');
      const there = (
        await this.pg.query(
          `SELECT * FROM "${table}" WHERE ${where}`,
          keyColumns.map((c) => row[c]),
        )
      ).rows[0] as Record<string, unknown> | undefined;
      const label = `${table}(${keyColumns.map((c) => String(row[c])).join(', ')})`;
      if (!there) {
        found.push(`${label} missing`);
        continue;
      }
      for (const { name } of columns) {
        if (!same(row[name], there[name])) found.push(`${label}.${name}: ${JSON.stringify(row[name])} on SQLite, ${JSON.stringify(there[name])} on PostgreSQL`);
      }
    }
    return found;
  }

  async close(): Promise<void> {
    this.sqlite.close();
    await this.pg.end();
  }
}

/** bigint comes back from pg as text; a `real` column is single precision on PostgreSQL. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && (typeof b === 'string' || typeof b === 'number')) return Number(b) === a || Math.fround(Number(b)) === Math.fround(a);
  return false;
}
