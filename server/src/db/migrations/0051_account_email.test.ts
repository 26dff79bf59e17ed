import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPgDatabase } from '../../../test/support/databases.js';
import { type DbHandle, openDatabase } from '../client.js';
import { migrateToLatest, migrations } from '../migrations.js';

async function open(kind: 'sqlite' | 'postgres'): Promise<{ handle: DbHandle; drop(): Promise<void> }> {
  if (kind === 'postgres') {
    const pg = await createPgDatabase();
    const handle = await openDatabase({ database: { kind: 'postgres', url: pg.url } }, { migrate: false });
    return { handle, drop: () => pg.drop() };
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-0051-'));
  const handle = await openDatabase({ database: { kind: 'sqlite', file: path.join(dir, 'site.db') } }, { migrate: false });
  return { handle, drop: () => fs.rm(dir, { recursive: true, force: true }) };
}

describe.each(['sqlite', 'postgres'] as const)('migration 0051 on %s', (kind) => {
  it('counts every account made before it as having confirmed its address', async () => {
    const { handle, drop } = await open(kind);
    try {
      const { db, dialect } = handle;
      // A site as it stood before 0051: later migrations may build on what 0051 made.
      const before = Object.fromEntries(Object.entries(migrations(dialect)).filter(([name]) => name < '0051'));
      await migrateToLatest(db, dialect, { migrations: before });
      await db
        .insertInto('users')
        .values({
          id: 'old1',
          username: 'old',
          email: 'old@example.com',
          full_name: 'Old Account',
          password_hash: 'x',
          avatar_key: null,
          cover_key: null,
          is_demo: 0,
          role: 'user',
          banned_at: null,
          ban_reason: null,
          approval_pending: 0,
          quota_bytes: null,
          daily_quota_bytes: null,
          subscribers_count: 0,
          videos_count: 0,
          created_at: 1_700_000_000_000,
          updated_at: 1_700_000_000_000,
        } as never)
        .execute();
      await migrateToLatest(db, dialect);
      const row = await db.selectFrom('users').select(['email_verified_at']).where('id', '=', 'old1').executeTakeFirstOrThrow();
      expect(Number(row.email_verified_at)).toBe(1_700_000_000_000);
      expect(await db.selectFrom('account_tokens').selectAll().execute()).toEqual([]);
      expect(await db.selectFrom('mails').selectAll().execute()).toEqual([]);
    } finally {
      await handle.close();
      await drop();
    }
  });
});
