import type { Kysely, Migration } from 'kysely';

/** Remote servers admins have blocked (a host, its subdomains with it), and who blocked each. */
export function migrationFederationBlocks(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('federation_blocks')
        .addColumn('domain', 'text', (c) => c.primaryKey())
        .addColumn('blocked_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
