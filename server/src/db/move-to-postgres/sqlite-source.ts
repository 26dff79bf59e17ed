import SQLite from 'better-sqlite3';

/** A table of the SQLite file to copy, as its schema describes it. */
export interface SourceTable {
  name: string;
  columns: string[];
  /** Tables its foreign keys point at (itself left out). */
  references: string[];
  /** Its columns that point at its own rows (a reply's parent comment). */
  selfReferences: string[];
}

export interface SourceSchema {
  /** Every table to copy, each after the tables its foreign keys point at. */
  copied: SourceTable[];
  /** Tables kept by triggers from other tables' rows: the target keeps its own (see keptByTriggers). */
  kept: string[];
}

/** Kysely's own bookkeeping: the target has its own, written when it was migrated. */
const MIGRATION_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The SQLite file read for the move, every table from one read transaction, so the copy is the
 * database at one moment even if something wrote to it meanwhile.
 */
export class SqliteSource {
  readonly #db: SQLite.Database;

  constructor(file: string) {
    this.#db = new SQLite(file, { readonly: true, fileMustExist: true });
    this.#db.exec('BEGIN');
  }

  schema(): SourceSchema {
    // table_list tells FTS5's virtual tables and their shadow tables from plain ones: the target
    // has its own search index, made from the copied rows.
    const plain = (this.#db.prepare(`PRAGMA main.table_list`).all() as { name: string; type: string }[])
      .filter((t) => t.type === 'table' && !t.name.startsWith('sqlite_') && !MIGRATION_TABLES.has(t.name))
      .map((t) => t.name);
    const kept = this.keptByTriggers(plain);
    const tables = plain
      .filter((name) => !kept.includes(name))
      .map((name): SourceTable => {
        const columns = (this.#db.prepare(`PRAGMA main.table_info(${quote(name)})`).all() as { name: string }[]).map((c) => c.name);
        const keys = this.#db.prepare(`PRAGMA main.foreign_key_list(${quote(name)})`).all() as { table: string; from: string }[];
        return {
          name,
          columns,
          references: [...new Set(keys.filter((k) => k.table !== name).map((k) => k.table))],
          selfReferences: keys.filter((k) => k.table === name).map((k) => k.from),
        };
      });
    return { copied: inForeignKeyOrder(tables), kept: kept.sort() };
  }

  /**
   * Tables that triggers write from other tables' rows (search words, the kept page boundaries and
   * their versions). Each database keeps its own from the rows it holds, in its own words and sort
   * order, so these are rebuilt on the target rather than copied.
   */
  private keptByTriggers(tables: string[]): string[] {
    const triggers = this.#db.prepare(`SELECT sql FROM sqlite_schema WHERE type = 'trigger'`).all() as { sql: string }[];
    const written = new Set<string>();
    for (const { sql } of triggers) {
      // The body only: the header's `UPDATE OF col ON table` names what fires it, not what it writes.
      const body = sql.slice(Math.max(0, sql.search(/\bBEGIN\b/i)));
      for (const m of body.matchAll(/\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+["`]?(\w+)/gi)) written.add(m[1]!);
    }
    return tables.filter((t) => written.has(t));
  }

  count(table: string): number {
    return (this.#db.prepare(`SELECT count(*) AS n FROM ${quote(table)}`).get() as { n: number }).n;
  }

  /**
   * A table's rows, batch by batch, never the whole table at once. Rows that point at their own
   * table's rows come after those that point at none (replies after the comments they answer).
   */
  *rows(table: SourceTable, batchSize: number): Generator<unknown[][]> {
    const order = table.selfReferences.length ? ` ORDER BY ${table.selfReferences.map((c) => `${quote(c)} IS NOT NULL`).join(', ')}, rowid` : '';
    const statement = this.#db.prepare(`SELECT ${table.columns.map(quote).join(', ')} FROM ${quote(table.name)}${order}`).raw(true);
    let batch: unknown[][] = [];
    for (const row of statement.iterate() as IterableIterator<unknown[]>) {
      batch.push(row);
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }

  close(): void {
    if (this.#db.inTransaction) this.#db.exec('COMMIT');
    this.#db.close();
  }
}

/** Tables ordered so that each comes after every table its foreign keys point at. */
function inForeignKeyOrder(tables: SourceTable[]): SourceTable[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const ordered: SourceTable[] = [];
  const visit = (table: SourceTable, path: string[]) => {
    if (done.has(table.name)) return;
    if (path.includes(table.name)) throw new Error(`Foreign keys form a cycle: ${[...path, table.name].join(' -> ')}`);
    for (const ref of table.references) {
      const target = byName.get(ref);
      if (target) visit(target, [...path, table.name]);
    }
    done.add(table.name);
    ordered.push(table);
  };
  for (const table of [...tables].sort((a, b) => a.name.localeCompare(b.name))) visit(table, []);
  return ordered;
}

/** Whether a file is a database this site made (it has run the first migration), before anything migrates it. */
export function isReelhouseDatabase(file: string): boolean {
  let db: SQLite.Database | null = null;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
    const row = db.prepare(`SELECT 1 FROM kysely_migration WHERE name = '0001_initial'`).get();
    return row !== undefined;
  } catch {
    return false;
  } finally {
    db?.close();
  }
}
