import { type Kysely, type Migration } from 'kysely';

export function migrationSignupApprovalAndAuditLog(): Migration {
  const bigint = 'bigint' as const;
  return {
    // Sign-ups by approval need an account that exists but cannot sign in yet; every admin and
    // moderator action is written to an audit log. Its actor and target are plain text, not
    // foreign keys: the record outlives the accounts and videos it names.
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('users')
        .addColumn('approval_pending', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('actor_id', 'text')
        .addColumn('actor_username', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_log_recent').on('audit_log').columns(['created_at', 'id']).execute();
      await db.schema.createIndex('audit_log_target').on('audit_log').columns(['target_type', 'target_id']).execute();
    },
  };
}
