import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type Migration, sql, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDatabase } from '../../test/support/databases.js';
import { type DbHandle, openDatabase } from './client.js';
import { migrateToLatest, migrations } from './migrations.js';

/**
 * A start's migrations run in one transaction on both databases: a database one release behind, with
 * rows in it, given the current migrations and then one that fails after changing the schema and a
 * row, is left exactly as it was (its tables, triggers and indexes, its rows, the migrations it
 * records); the same migrations without the failing one then apply.
 */
const sites: [string, () => Promise<{ handle: DbHandle; drop(): Promise<void> }>][] = [
  [
    'SQLite',
    async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-migrations-'));
      const handle = await openDatabase({ database: { kind: 'sqlite', file: path.join(dir, 'site.db') } }, { migrate: false });
      return { handle, drop: () => fs.rm(dir, { recursive: true, force: true }) };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const pg = await createPgDatabase();
      const handle = await openDatabase({ database: { kind: 'postgres', url: pg.url } }, { migrate: false });
      return { handle, drop: () => pg.drop() };
    },
  ],
];

/** Everything a migration could change: the schema's objects, the users' rows and the migrations applied. */
async function snapshot(handle: DbHandle) {
  const { db } = handle;
  const schema =
    handle.dialect === 'sqlite'
      ? (await sql<{ type: string; name: string; sql: string | null }>`SELECT type, name, sql FROM sqlite_master ORDER BY type, name`.execute(db)).rows
      : [
          ...(
            await sql`SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
              WHERE table_schema = 'public' ORDER BY table_name, column_name`.execute(db)
          ).rows,
          ...(await sql`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`.execute(db)).rows,
          ...(await sql`SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname`.execute(db)).rows,
          ...(await sql`SELECT proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY proname`.execute(db)).rows,
        ];
  const users = (await sql`SELECT * FROM users ORDER BY id`.execute(db)).rows;
  const applied = (await sql`SELECT name, timestamp FROM kysely_migration ORDER BY name`.execute(db)).rows;
  return { schema, users, applied };
}

/** The migrations of the release with page buckets (0033) and what came after it still to come. */
function olderRelease(handle: DbHandle): Record<string, Migration> {
  return Object.fromEntries(Object.entries(migrations(handle.dialect)).filter(([name]) => name < '0033'));
}

const failing: Migration = {
  async up(db) {
    await sql`CREATE TABLE half_done (id integer)`.execute(db);
    await sql`UPDATE users SET full_name = 'Changed'`.execute(db);
    await sql`ALTER TABLE no_such_table ADD COLUMN x integer`.execute(db);
  },
};

describe.each(sites)('migrations on %s', (_name, open) => {
  let handle: DbHandle;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const site = await open();
    handle = site.handle;
    drop = site.drop;
    await migrateToLatest(handle.db, handle.dialect, { migrations: olderRelease(handle) });
    const now = Date.now();
    for (const n of [1, 2]) {
      await sql`INSERT INTO users (id, username, email, full_name, password_hash, created_at, updated_at)
        VALUES (${`u${n}`}, ${`user${n}`}, ${`user${n}@example.com`}, ${`User ${n}`}, 'hash', ${now}, ${now})`.execute(handle.db);
    }
  });
  afterAll(async () => {
    await handle?.close();
    await drop?.();
  });

  it('leaves the database as it was when one pending migration fails, and says which in one line', async () => {
    const before = await snapshot(handle);
    expect(before.users).toHaveLength(2);
    const pending = Object.keys(migrations(handle.dialect)).filter((name) => name >= '0033');
    expect(pending.length).toBeGreaterThan(3);

    const attempt = migrateToLatest(handle.db, handle.dialect, { migrations: { ...migrations(handle.dialect), '9999_fails': failing } });
    const err = await attempt.then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/^Database migration 9999_fails failed: .*no_such_table.*; the database was left as it was$/);
    expect(err?.message).not.toContain('\n');

    expect(await snapshot(handle)).toEqual(before);
  });

  it('stops with nothing migrated when the step before migrating fails, and tells it what is pending', async () => {
    const before = await snapshot(handle);
    const told: { pending: string[]; applied: string[] }[] = [];
    await expect(
      migrateToLatest(handle.db, handle.dialect, {
        beforeMigrating: async (plan) => {
          told.push(plan);
          throw new Error('Database backup before migrating failed: disk full; nothing was migrated');
        },
      }),
    ).rejects.toThrow(/^Database backup before migrating failed/);
    expect(told).toEqual([{ pending: Object.keys(migrations(handle.dialect)).filter((n) => n >= '0033'), applied: Object.keys(olderRelease(handle)).sort() }]);
    expect(await snapshot(handle)).toEqual(before);
  });

  it('applies the same pending migrations once none fails, and is not asked again when nothing is pending', async () => {
    await migrateToLatest(handle.db, handle.dialect);
    const after = await snapshot(handle);
    expect(after.applied.map((r: any) => r.name)).toEqual(Object.keys(migrations(handle.dialect)).sort());
    expect(after.users).toHaveLength(2);
    let asked = false;
    await migrateToLatest(handle.db, handle.dialect, {
      beforeMigrating: async () => {
        asked = true;
      },
    });
    expect(asked).toBe(false);
  });
});

describe('a SQLite connection made without the transactional adapter', () => {
  it('is refused rather than migrated one statement at a time', async () => {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    try {
      await expect(migrateToLatest(db, 'sqlite')).rejects.toThrow(/in a transaction/);
      expect((await sql`SELECT name FROM sqlite_master`.execute(db)).rows).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});
