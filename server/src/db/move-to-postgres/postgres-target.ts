import pg from 'pg';

/** What a database held before the move touched it: its tables and functions, by name. */
export interface TargetObjects {
  tables: string[];
  functions: string[];
}

/** PostgreSQL takes at most 65,535 parameters in one statement. */
const MAX_PARAMETERS = 60_000;
const MAX_ROWS_PER_INSERT = 1000;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The PostgreSQL database a site moves to, over one connection of its own (the copy is one transaction). */
export class PostgresTarget {
  private constructor(private readonly client: pg.Client) {}

  static async connect(url: string): Promise<PostgresTarget> {
    const client = new pg.Client({ connectionString: url });
    // A connection lost between statements surfaces as the next statement's error instead.
    client.on('error', () => {});
    await client.connect();
    return new PostgresTarget(client);
  }

  async objects(): Promise<TargetObjects> {
    const tables = await this.client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') ORDER BY 1`,
    );
    const functions = await this.client.query<{ name: string }>(
      `SELECT p.oid::regprocedure::text AS name FROM pg_proc p WHERE p.pronamespace = current_schema()::regnamespace ORDER BY 1`,
    );
    return { tables: tables.rows.map((r) => r.name), functions: functions.rows.map((r) => r.name) };
  }

  /**
   * The first table that holds rows, or null when the database is empty. Kysely's migration tables
   * are the schema's own, and a freshly migrated schema already holds its counters, at zero.
   */
  async firstTableWithRows(tables: string[]): Promise<string | null> {
    for (const table of tables) {
      if (table.startsWith('kysely_migration')) continue;
      const where = table === 'counters' ? ' WHERE value <> 0' : '';
      const { rows } = await this.client.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${quote(table)}${where}) AS any`);
      if (rows[0]!.any) return table;
    }
    return null;
  }

  /** The columns of a table that take a value: generated ones (the search vectors) are made by PostgreSQL. */
  async writableColumns(table: string): Promise<Set<string>> {
    const { rows } = await this.client.query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'`,
      [table],
    );
    return new Set(rows.map((r) => r.name));
  }

  async begin(): Promise<void> {
    await this.client.query('BEGIN');
  }

  async commit(): Promise<void> {
    await this.client.query('COMMIT');
  }

  async rollback(): Promise<void> {
    await this.client.query('ROLLBACK');
  }

  /** Removes the rows a freshly migrated schema starts with (counters at zero), so the copied ones take their place. */
  async empty(table: string): Promise<void> {
    await this.client.query(`DELETE FROM ${quote(table)}`);
  }

  /**
   * Switches a table's own triggers off or on (foreign keys stay checked). Inside the copy's
   * transaction, so a failure leaves them on; the table's owner may do this, no superuser needed.
   */
  async userTriggers(table: string, on: boolean): Promise<void> {
    await this.client.query(`ALTER TABLE ${quote(table)} ${on ? 'ENABLE' : 'DISABLE'} TRIGGER USER`);
  }

  async run(statement: string): Promise<void> {
    await this.client.query(statement);
  }

  /** Rows per INSERT for a table of this many columns. */
  static rowsPerInsert(columns: number): number {
    return Math.max(1, Math.min(MAX_ROWS_PER_INSERT, Math.floor(MAX_PARAMETERS / columns)));
  }

  async insert(table: string, columns: string[], rows: unknown[][]): Promise<void> {
    const width = columns.length;
    const per = PostgresTarget.rowsPerInsert(width);
    for (let start = 0; start < rows.length; start += per) {
      const chunk = rows.slice(start, start + per);
      const tuples = chunk.map((_, r) => `(${columns.map((__, c) => `$${r * width + c + 1}`).join(', ')})`);
      await this.client.query(`INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES ${tuples.join(', ')}`, chunk.flat());
    }
  }

  async count(table: string): Promise<number> {
    const { rows } = await this.client.query<{ n: string }>(`SELECT count(*) AS n FROM ${quote(table)}`);
    return Number(rows[0]!.n);
  }

  /** Moves every sequence (the jobs' and caption cues' ids) past the highest id copied, so new rows get new ids. */
  async setSequences(): Promise<string[]> {
    const { rows } = await this.client.query<{ table: string; column: string; sequence: string }>(
      `SELECT table_name AS table, column_name AS column, pg_get_serial_sequence(quote_ident(table_name), column_name) AS sequence
       FROM information_schema.columns
       WHERE table_schema = current_schema() AND pg_get_serial_sequence(quote_ident(table_name), column_name) IS NOT NULL
       ORDER BY 1, 2`,
    );
    for (const r of rows) {
      await this.client.query(`SELECT setval($1, coalesce((SELECT max(${quote(r.column)}) FROM ${quote(r.table)}), 0) + 1, false)`, [r.sequence]);
    }
    return rows.map((r) => `${r.table}.${r.column}`);
  }

  /** Fresh planner statistics for the copied rows, instead of waiting for autovacuum to notice them. */
  async analyze(): Promise<void> {
    await this.client.query('ANALYZE');
  }

  /** Drops the tables and functions that were not there before: what the move's migration made. */
  async dropAllBut(before: TargetObjects): Promise<void> {
    const now = await this.objects();
    for (const table of now.tables.filter((t) => !before.tables.includes(t))) {
      await this.client.query(`DROP TABLE IF EXISTS ${quote(table)} CASCADE`);
    }
    for (const fn of now.functions.filter((f) => !before.functions.includes(f))) {
      await this.client.query(`DROP FUNCTION IF EXISTS ${fn} CASCADE`);
    }
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => {});
  }
}
