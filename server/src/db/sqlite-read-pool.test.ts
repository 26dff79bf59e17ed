import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DbHandle, openDatabase } from './client.js';

let dir: string;
let handle: DbHandle;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-pool-'));
  handle = await openDatabase({ database: { kind: 'sqlite', file: path.join(dir, 'db.sqlite'), readWorkers: 2 } });
});

afterEach(async () => {
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const addSetting = (key: string, value: string) => handle.db.insertInto('settings').values({ key, value }).execute();

describe('SQLite with a read pool', () => {
  it('reads what was written just before, with parameters', async () => {
    await addSetting('a', 'one');
    await addSetting('b', 'two');
    const rows = await handle.db.selectFrom('settings').selectAll().where('key', 'in', ['a', 'b']).orderBy('key').execute();
    expect(rows).toEqual([
      { key: 'a', value: 'one' },
      { key: 'b', value: 'two' },
    ]);
  });

  it("reads a transaction's own uncommitted writes inside it, and nothing of them outside until commit", async () => {
    let seenOutside: unknown[] = ['not read'];
    await handle.db.transaction().execute(async (trx) => {
      await trx.insertInto('settings').values({ key: 'inside', value: 'x' }).execute();
      expect(await trx.selectFrom('settings').select('value').where('key', '=', 'inside').execute()).toEqual([{ value: 'x' }]);
      // A plain read made meanwhile goes to a worker and sees the last commit.
      seenOutside = await handle.db.selectFrom('settings').select('value').where('key', '=', 'inside').execute();
    });
    expect(seenOutside).toEqual([]);
    expect(await handle.db.selectFrom('settings').select('value').where('key', '=', 'inside').execute()).toEqual([{ value: 'x' }]);
  });

  it('gives a failing read its error', async () => {
    await expect(
      handle.db
        .selectFrom('settings')
        .select(sql`no_such_column`.as('x'))
        .execute(),
    ).rejects.toThrow(/no_such_column/);
  });

  it('keeps the event loop turning while a slow read runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = Date.now();
    // A read that counts to three million: hundreds of milliseconds of work on a worker.
    const slow = handle.db
      .selectNoFrom(sql<number>`(WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) SELECT count(*) FROM n)`.as('c'))
      .executeTakeFirstOrThrow();
    const [row] = await Promise.all([slow]);
    clearInterval(timer);
    const elapsed = Date.now() - started;
    expect(row.c).toBe(3_000_000);
    // Without the pool the interval could not fire at all until the query returned.
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(elapsed / 5 / 4));
    expect(ticks).toBeGreaterThan(5);
  });
});
