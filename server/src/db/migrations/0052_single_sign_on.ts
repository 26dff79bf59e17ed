import type { Kysely, Migration } from 'kysely';

/**
 * Single sign-on: the provider accounts linked to each account, and the sign-ins under way. A flow
 * is a row, not process memory, so that the redirect to the provider and its return may reach
 * different API processes; it is deleted when used, which makes its state single-use.
 */
export function migrationSingleSignOn(): Migration {
  const bigint = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('user_identities')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('provider', 'text', (c) => c.notNull())
        // The provider's `sub` claim: stable for one person at one provider, unlike an email address.
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('created_at', bigint, (c) => c.notNull())
        .addColumn('last_used_at', bigint)
        .addUniqueConstraint('user_identities_provider_subject', ['provider', 'subject'])
        .execute();
      await db.schema.createIndex('user_identities_user').on('user_identities').column('user_id').execute();

      await db.schema
        .createTable('sign_in_flows')
        // SHA-256 of the state sent to the provider: a stolen table row cannot finish a flow.
        .addColumn('state_hash', 'text', (c) => c.primaryKey())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('code_verifier', 'text', (c) => c.notNull())
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('return_to', 'text', (c) => c.notNull())
        // Set when a signed-in account links the provider instead of signing in with it.
        .addColumn('link_user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('expires_at', bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sign_in_flows_expires').on('sign_in_flows').column('expires_at').execute();
    },
  };
}
