import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Mail and the links it carries. `users.email_verified_at` is when the address was confirmed: every
 * account that exists now counts as confirmed, so turning checks on later locks nobody out.
 * `account_tokens` keeps only a hash of each link's token: single-use (`used_at`), with an end.
 * `mails` holds a mail until it is sent: the job composes it (and makes its link) on its first
 * attempt and deletes the row once the mail server took it.
 */
export function migrationAccountEmail(): Migration {
  const bigint = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('users').addColumn('email_verified_at', bigint).execute();
      await db
        .updateTable('users')
        .set({ email_verified_at: sql`created_at` })
        .execute();
      await db.schema
        .createTable('account_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('created_at', bigint, (c) => c.notNull())
        .addColumn('expires_at', bigint, (c) => c.notNull())
        .addColumn('used_at', bigint)
        .execute();
      await db.schema.createIndex('account_tokens_user').on('account_tokens').columns(['user_id', 'purpose']).execute();
      await db.schema
        .createTable('mails')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('to_address', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text')
        .addColumn('link_base', 'text', (c) => c.notNull())
        .addColumn('subject', 'text')
        .addColumn('text_body', 'text')
        .addColumn('html_body', 'text')
        .addColumn('created_at', bigint, (c) => c.notNull())
        .execute();
    },
  };
}
