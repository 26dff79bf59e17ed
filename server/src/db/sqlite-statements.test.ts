import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { keepingStatements } from './sqlite-statements.js';

let raw: SQLite.Database;
afterEach(() => raw?.open && raw.close());

describe('keepingStatements', () => {
  it('prepares a statement once and hands the same one out again', () => {
    raw = new SQLite(':memory:');
    const db = keepingStatements(raw);
    const first = db.prepare('select 1 as one');
    expect(db.prepare('select 1 as one')).toBe(first);
    expect(db.prepare('select 2 as two')).not.toBe(first);
  });

  it('gives a fresh statement while the kept one is still being iterated', () => {
    raw = new SQLite(':memory:');
    raw.exec('create table t (n integer); insert into t values (1), (2), (3)');
    const db = keepingStatements(raw);
    const outer = db.prepare('select n from t order by n') as unknown as SQLite.Statement;
    const seen: number[] = [];
    for (const row of outer.iterate() as Iterable<{ n: number }>) {
      const inner = db.prepare('select n from t order by n') as unknown as SQLite.Statement;
      expect(inner).not.toBe(outer);
      seen.push(row.n, (inner.all() as { n: number }[]).length);
    }
    expect(seen).toEqual([1, 3, 2, 3, 3, 3]);
  });

  it('serves Kysely: reads, writes and a schema change between two runs of one statement', async () => {
    raw = new SQLite(':memory:');
    const db = new Kysely<{ t: { n: number; m?: number | null } }>({ dialect: new SqliteDialect({ database: keepingStatements(raw) }) });
    await sql`create table t (n integer)`.execute(db);
    await db.insertInto('t').values({ n: 1 }).execute();
    const read = () => db.selectFrom('t').selectAll().orderBy('n').execute();
    expect(await read()).toEqual([{ n: 1 }]);
    await sql`alter table t add column m integer`.execute(db);
    await db.insertInto('t').values({ n: 2 }).execute();
    expect(await read()).toEqual([
      { n: 1, m: null },
      { n: 2, m: null },
    ]);
    // More distinct statements than are kept: the oldest are let go, every one still runs.
    for (let i = 0; i < 600; i++) expect((await sql<{ v: number }>`select ${sql.lit(i)} as v`.execute(db)).rows[0]!.v).toBe(i);
    await db.destroy();
  });
});
