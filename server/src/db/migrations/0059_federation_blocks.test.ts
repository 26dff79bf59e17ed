import { describe, expect, it } from 'vitest';
import { accountRow, siteBeforeMigration } from '../../../test/support/migration-site.js';
import { migrateToLatest } from '../migrations.js';

describe.each(['sqlite', 'postgres'] as const)('migration 0059 on %s', (kind) => {
  it('keeps every account; a domain is blocked once, and its block outlives the admin who made it', async () => {
    const { handle, drop } = await siteBeforeMigration(kind, '0059');
    try {
      const { db, dialect } = handle;
      await db
        .insertInto('users')
        .values(accountRow('admin1', { role: 'admin' }))
        .execute();
      await migrateToLatest(db, dialect);
      expect((await db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id).toBe('admin1');
      expect(await db.selectFrom('federation_blocks').selectAll().execute()).toEqual([]);

      const row = { domain: 'spam.example', blocked_by: 'admin1', created_at: 1 };
      await db.insertInto('federation_blocks').values(row).execute();
      await expect(db.insertInto('federation_blocks').values(row).execute()).rejects.toThrow();
      await db.deleteFrom('users').where('id', '=', 'admin1').execute();
      expect(await db.selectFrom('federation_blocks').selectAll().execute()).toEqual([{ domain: 'spam.example', blocked_by: null, created_at: 1 }]);
    } finally {
      await handle.close();
      await drop();
    }
  });
});
