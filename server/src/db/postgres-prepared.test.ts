import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDatabase } from '../../test/support/databases.js';
import { type DbHandle, openDatabase } from './client.js';

/** On PostgreSQL (whatever database the suite runs on): statements are prepared once per connection. */
let pgDb: Awaited<ReturnType<typeof createPgDatabase>>;
let handle: DbHandle;
beforeAll(async () => {
  pgDb = await createPgDatabase();
  handle = await openDatabase({ database: { kind: 'postgres', url: pgDb.url } });
});
afterAll(async () => {
  await handle?.close();
  await pgDb?.drop();
});

/** The statements prepared on the connection a transaction runs on, asked on that same connection. */
async function preparedOnOneConnection(work: (trx: DbHandle['db']) => Promise<unknown>): Promise<string[]> {
  return handle.db.transaction().execute(async (trx) => {
    await work(trx);
    const rows = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(trx);
    return rows.rows.map((r) => r.statement);
  });
}

describe('PostgreSQL prepared statements', () => {
  it('prepares a plain statement, and answers it the same each time', async () => {
    const answers: unknown[] = [];
    const prepared = await preparedOnOneConnection(async (trx) => {
      for (const key of ['a', 'b', 'a']) answers.push(await trx.selectFrom('settings').select('value').where('key', '=', key).execute());
    });
    expect(answers).toEqual([[], [], []]);
    expect(prepared.filter((s) => s.includes('from "settings"'))).toHaveLength(1);
  });

  it('leaves full-text searches unprepared, so each is planned for its own words', async () => {
    const prepared = await preparedOnOneConnection((trx) =>
      trx
        .selectFrom('videos')
        .select('id')
        .where(sql<boolean>`search_vector @@ to_tsquery('simple', ${'garden'})`)
        .execute(),
    );
    expect(prepared.some((s) => s.includes('@@'))).toBe(false);
  });

  it('sends a statement again unprepared when another process changed its table since', async () => {
    await sql`create table shape_test (a int)`.execute(handle.db);
    await sql`insert into shape_test values (1)`.execute(handle.db);
    const read = () =>
      handle.db
        .selectFrom('shape_test' as never)
        .selectAll()
        .execute();
    // Prepared on every pooled connection the reads meet.
    for (let i = 0; i < 12; i++) await Promise.all([read(), read(), read()]);
    const other = new pg.Client({ connectionString: pgDb.url });
    await other.connect();
    await other.query('alter table shape_test add column b int default 2');
    await other.end();
    const rows = await Promise.all(Array.from({ length: 10 }, read));
    for (const r of rows) expect(r).toEqual([{ a: 1, b: 2 }]);
  });
});
