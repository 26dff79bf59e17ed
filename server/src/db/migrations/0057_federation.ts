import type { Kysely, Migration } from 'kysely';

/**
 * Federation (docs/decisions/0059): each channel's RSA key pair (JWK, made the first time another
 * server asks for it), the remote actors following a channel, the remote channels a channel follows
 * (accepted once their Accept arrives), the small key-value store the ActivityPub library keeps
 * its caches and idempotence marks in (expires_at null: kept until deleted), and the messages of
 * its queue, which hold a channel's private key and so stay out of job payloads (and logs, and Redis).
 */
export function migrationFederation(): Migration {
  const bigint = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('federation_keys')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('private_key', 'text', (c) => c.notNull())
        .addColumn('created_at', bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('federation_followers')
        .addColumn('channel_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('actor_id', 'text', (c) => c.notNull())
        .addColumn('inbox', 'text', (c) => c.notNull())
        .addColumn('shared_inbox', 'text')
        .addColumn('follow_id', 'text')
        .addColumn('created_at', bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('federation_followers_pk', ['channel_id', 'actor_id'])
        .execute();
      await db.schema
        .createTable('federation_following')
        .addColumn('channel_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('actor_id', 'text', (c) => c.notNull())
        .addColumn('inbox', 'text', (c) => c.notNull())
        .addColumn('follow_id', 'text', (c) => c.notNull())
        .addColumn('accepted_at', bigint)
        .addColumn('created_at', bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('federation_following_pk', ['channel_id', 'actor_id'])
        .execute();
      await db.schema
        .createTable('federation_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('federation_kv')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('expires_at', bigint)
        .execute();
    },
  };
}
