import type { Kysely, Migration } from 'kysely';

/**
 * Who may go live: `users.live_allowed` is 1 for an account an admin has allowed to, which is what
 * counts when the site lets only approved accounts go live (the `liveAllowed` setting).
 */
export function migrationLiveAllowed(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('users')
        .addColumn('live_allowed', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
