import { describe, expect, it } from 'vitest';
import { accountRow, siteBeforeMigration } from '../../../test/support/migration-site.js';
import { migrateToLatest } from '../migrations.js';

describe.each(['sqlite', 'postgres'] as const)('migration 0057 on %s', (kind) => {
  it("keeps every account, and a channel's keys and followers go with its account", async () => {
    const { handle, drop } = await siteBeforeMigration(kind, '0057');
    try {
      const { db, dialect } = handle;
      await db
        .insertInto('users')
        .values(accountRow('old1', { username: 'old' }))
        .execute();
      await migrateToLatest(db, dialect);
      expect((await db.selectFrom('users').select('username').executeTakeFirstOrThrow()).username).toBe('old');
      expect(await db.selectFrom('federation_keys').selectAll().execute()).toEqual([]);

      await db.insertInto('federation_keys').values({ user_id: 'old1', public_key: '{}', private_key: '{}', created_at: 1 }).execute();
      await db
        .insertInto('federation_followers')
        .values({ channel_id: 'old1', actor_id: 'https://peer.test/a', inbox: 'https://peer.test/a/inbox', shared_inbox: null, follow_id: null, created_at: 1 })
        .execute();
      await db
        .insertInto('federation_following')
        .values({
          channel_id: 'old1',
          actor_id: 'https://peer.test/b',
          inbox: 'https://peer.test/b/inbox',
          follow_id: 'https://x.test/f',
          accepted_at: null,
          created_at: 1,
        })
        .execute();
      // One follower per remote actor and channel.
      await expect(
        db
          .insertInto('federation_followers')
          .values({
            channel_id: 'old1',
            actor_id: 'https://peer.test/a',
            inbox: 'https://peer.test/a/inbox',
            shared_inbox: null,
            follow_id: null,
            created_at: 2,
          })
          .execute(),
      ).rejects.toThrow();
      await db.insertInto('federation_kv').values({ key: '["a","b"]', value: '1', expires_at: null }).execute();
      await db.insertInto('federation_messages').values({ id: 'm1', body: '{"type":"outbox"}', created_at: 1 }).execute();

      await db.deleteFrom('users').where('id', '=', 'old1').execute();
      for (const table of ['federation_keys', 'federation_followers', 'federation_following'] as const) {
        expect(await db.selectFrom(table).selectAll().execute()).toEqual([]);
      }
      expect(await db.selectFrom('federation_kv').select('value').execute()).toEqual([{ value: '1' }]);
      expect(await db.selectFrom('federation_messages').select('id').execute()).toEqual([{ id: 'm1' }]);
    } finally {
      await handle.close();
      await drop();
    }
  });
});
