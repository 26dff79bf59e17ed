import type { Kysely, Migration } from 'kysely';

/**
 * Passkeys (WebAuthn credentials) and the challenges handed out for them. A challenge is a row, not
 * process memory, so that the options and the answer may reach different API processes; it is
 * deleted when used, which makes it single-use.
 */
export function migrationPasskeys(): Migration {
  const bigint = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('passkeys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('credential_id', 'text', (c) => c.notNull().unique())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', bigint, (c) => c.notNull())
        .addColumn('transports', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', bigint, (c) => c.notNull())
        .addColumn('last_used_at', bigint)
        .execute();
      await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();

      await db.schema
        .createTable('passkey_challenges')
        .addColumn('challenge', 'text', (c) => c.primaryKey())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('expires_at', bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('passkey_challenges_expires').on('passkey_challenges').column('expires_at').execute();
    },
  };
}
