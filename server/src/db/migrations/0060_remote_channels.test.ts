import { describe, expect, it } from 'vitest';
import { accountRow, siteBeforeMigration } from '../../../test/support/migration-site.js';
import { migrateToLatest } from '../migrations.js';

describe.each(['sqlite', 'postgres'] as const)('migration 0060 on %s', (kind) => {
  it('keeps every account as one of the site (no remote actor); one account per remote actor', async () => {
    const { handle, drop } = await siteBeforeMigration(kind, '0060');
    try {
      const { db, dialect } = handle;
      await db.insertInto('users').values(accountRow('local1')).execute();
      await migrateToLatest(db, dialect);
      expect(await db.selectFrom('users').select(['id', 'remote_actor_id', 'remote_url']).execute()).toEqual([
        { id: 'local1', remote_actor_id: null, remote_url: null },
      ]);
      const remote = (id: string) => ({ ...accountRow(id), remote_actor_id: 'https://video.example.com/ap/channels/1' });
      await db.insertInto('users').values(remote('remote1')).execute();
      await expect(db.insertInto('users').values(remote('remote2')).execute()).rejects.toThrow();
      // Any number of the site's own accounts have none.
      await db.insertInto('users').values(accountRow('local2')).execute();
    } finally {
      await handle.close();
      await drop();
    }
  });
});
