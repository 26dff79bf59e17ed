import { describe, expect, it } from 'vitest';
import { siteBeforeMigration } from '../../../test/support/migration-site.js';
import { migrateToLatest } from '../migrations.js';

describe.each(['sqlite', 'postgres'] as const)('migration 0056 on %s', (kind) => {
  it('leaves every account made before it with no language chosen, and keeps a chosen one', async () => {
    const { handle, drop } = await siteBeforeMigration(kind, '0056');
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
          email_verified_at: 1_700_000_000_000,
          live_allowed: 0,
          created_at: 1_700_000_000_000,
          updated_at: 1_700_000_000_000,
        } as never)
        .execute();
      await migrateToLatest(db, dialect);
      const row = await db.selectFrom('users').select(['language']).where('id', '=', 'old1').executeTakeFirstOrThrow();
      expect(row.language).toBeNull();
      await db.updateTable('users').set({ language: 'pt-BR' }).where('id', '=', 'old1').execute();
      expect((await db.selectFrom('users').select('language').where('id', '=', 'old1').executeTakeFirstOrThrow()).language).toBe('pt-BR');
      await db
        .insertInto('mails')
        .values({
          id: 'm1',
          kind: 'password-reset',
          to_address: 'old@example.com',
          user_id: null,
          link_base: 'https://x.test',
          subject: null,
          text_body: null,
          html_body: null,
          language: 'ja',
          created_at: 1,
        })
        .execute();
      expect((await db.selectFrom('mails').select('language').executeTakeFirstOrThrow()).language).toBe('ja');
    } finally {
      await handle.close();
      await drop();
    }
  });
});
