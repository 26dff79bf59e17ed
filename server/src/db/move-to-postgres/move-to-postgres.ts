import fs from 'node:fs';
import { openDatabase } from '../client.js';
import type { BeforeMigrating } from '../migrations.js';
import { PostgresTarget, type TargetObjects } from './postgres-target.js';
import { isReelhouseDatabase, SqliteSource } from './sqlite-source.js';

/** A move that could not be made, said in one line. */
export class MoveError extends Error {}

export interface MoveReport {
  /** Tables copied, with their rows (equal on both sides). */
  copied: { table: string; rows: number }[];
  /** Tables the target keeps from the copied rows itself, with the rows they hold after the move. */
  rebuilt: { table: string; rows: number }[];
  /** Sequences moved past the copied ids, as table.column. */
  sequences: string[];
}

/**
 * How PostgreSQL gets each table that triggers keep from other tables' rows: a statement run once
 * after the copy, or null for a table the site builds itself when first needed. The copy runs with
 * the target's own triggers off, so rows arrive exactly as they were (no count is added to twice)
 * and the page boundaries' triggers, slow row by row, do not run for nothing. A table kept by
 * triggers and missing here stops the move before anything is written.
 */
const REBUILDS: Record<string, string | null> = {
  // Every word of every video's search vector, as migration 0038 first filled it.
  search_words: `INSERT INTO search_words (word)
    SELECT DISTINCT w FROM videos, unnest(tsvector_to_array(videos.search_vector)) AS w ORDER BY 1
    ON CONFLICT DO NOTHING`,
  // A list's first deep page builds its boundaries (list-paging.ts), in PostgreSQL's own sort order.
  page_buckets: null,
  page_bucket_versions: null,
};

/** A progress line every this many rows of a large table, besides the one when it is done. */
const PROGRESS_EVERY = 100_000;

/**
 * Copies a site's SQLite database into an empty PostgreSQL database, both at the latest schema, in
 * one transaction: a failure leaves the target as it was (what its migration made is dropped too).
 */
export async function moveToPostgres(opts: {
  from: string;
  to: string;
  say: (line: string) => void;
  /** Run before the SQLite file is migrated, when it has migrations to apply (a backup of it). */
  beforeMigratingSource?: BeforeMigrating;
}): Promise<MoveReport> {
  const { from, to } = opts;
  if (!fs.existsSync(from)) throw new MoveError(`There is no SQLite database at ${from} (set DATA_DIR, or give --from)`);
  if (!isReelhouseDatabase(from)) throw new MoveError(`${from} is not a Reelhouse database`);
  const target = await PostgresTarget.connect(to).catch((err: Error) => {
    throw new MoveError(`Cannot connect to PostgreSQL at ${describeUrl(to)}: ${err.message}`);
  });
  try {
    const before = await target.objects();
    const holding = await target.firstTableWithRows(before.tables);
    if (holding) throw new MoveError(`The target database is not empty (table ${holding} has rows): move into a new, empty database`);
    return await copyInto(target, before, opts);
  } finally {
    await target.close();
  }
}

async function copyInto(
  target: PostgresTarget,
  before: TargetObjects,
  { from, to, say, beforeMigratingSource }: Parameters<typeof moveToPostgres>[0],
): Promise<MoveReport> {
  let source: SqliteSource | null = null;
  let inTransaction = false;
  try {
    say('Bringing both databases to the latest schema');
    await (await openDatabase({ database: { kind: 'sqlite', file: from, readWorkers: 0 } }, { beforeMigrating: beforeMigratingSource })).close();
    await (await openDatabase({ database: { kind: 'postgres', url: to } })).close();

    source = new SqliteSource(from);
    const schema = source.schema();
    const unknown = schema.kept.find((t) => !(t in REBUILDS));
    if (unknown) throw new MoveError(`Table ${unknown} is kept by triggers, and the move does not know how to make it again on PostgreSQL`);
    const known = new Set([...schema.copied.map((t) => t.name), ...schema.kept]);
    const stray = (await target.objects()).tables.find((t) => !t.startsWith('kysely_migration') && !known.has(t));
    if (stray) throw new MoveError(`Table ${stray} on PostgreSQL has no counterpart in the SQLite database`);
    for (const table of schema.copied) {
      const writable = await target.writableColumns(table.name);
      if (!writable.size) throw new MoveError(`Table ${table.name} is missing on PostgreSQL`);
      const missing = table.columns.find((c) => !writable.has(c));
      if (missing) throw new MoveError(`Column ${table.name}.${missing} is missing on PostgreSQL`);
    }

    await target.begin();
    inTransaction = true;
    const copied: MoveReport['copied'] = [];
    for (const table of schema.copied) await target.userTriggers(table.name, false);
    for (const table of schema.copied) {
      await target.empty(table.name);
      const total = source.count(table.name);
      const started = Date.now();
      const took = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
      let rows = 0;
      let nextProgress = PROGRESS_EVERY;
      for (const batch of source.rows(table, PostgresTarget.rowsPerInsert(table.columns.length))) {
        await target.insert(table.name, table.columns, batch);
        rows += batch.length;
        if (rows >= nextProgress && rows < total) {
          say(`  ${table.name}: ${rows} / ${total} rows (${took()})`);
          nextProgress += PROGRESS_EVERY;
        }
      }
      say(`  ${table.name}: ${rows} / ${total} rows (${took()})`);
      copied.push({ table: table.name, rows: total });
    }
    for (const table of schema.copied) await target.userTriggers(table.name, true);
    const sequences = await target.setSequences();
    for (const table of schema.kept) {
      const statement = REBUILDS[table];
      if (statement) await target.run(statement);
    }

    for (const { table, rows } of copied) {
      const there = await target.count(table);
      if (there !== rows) throw new MoveError(`Row counts differ for ${table}: ${rows} on SQLite, ${there} on PostgreSQL`);
    }
    const rebuilt: MoveReport['rebuilt'] = [];
    for (const table of schema.kept) rebuilt.push({ table, rows: await target.count(table) });
    await target.commit();
    inTransaction = false;
    await target.analyze();
    return { copied, rebuilt, sequences };
  } catch (err) {
    // A lost connection rolls the transaction back by itself, but then nothing can drop the schema.
    if (inTransaction) await target.rollback().catch(() => {});
    const restored = await target.dropAllBut(before).then(
      () => true,
      () => false,
    );
    if (err instanceof MoveError && restored) throw err;
    const state = restored ? 'the target is left as it was' : 'the target may still hold the schema the move made there: drop the database and make it again';
    throw new MoveError(`The move failed, and ${state}: ${(err as Error).message}`);
  } finally {
    source?.close();
  }
}

/** The target's address without its password, for messages. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return 'the given address';
  }
}
