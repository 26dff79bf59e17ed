import { describe, expect, it } from 'vitest';
import { siteBeforeMigration } from '../../../test/support/migration-site.js';
import { migrateToLatest } from '../migrations.js';

describe.each(['sqlite', 'postgres'] as const)('migration 0051 on %s', (kind) => {
  it('counts every account made before it as having confirmed its address', async () => {
    const { handle, drop } = await siteBeforeMigration(kind, '0051');
    try {
      const { db, dialect } = handle;
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
