import type { Kysely, Migration } from 'kysely';

export function migrationNotificationsPageOrder(): Migration {
  return {
    // A page of notifications is ordered by (created_at, id): with the id in the index the newest
    // rows are read in page order and the walk stops at the page, instead of every notification of
    // the user being sorted to break ties. The old index is a prefix of this one.
    async up(db: Kysely<any>) {
      await db.schema.createIndex('notifications_page').on('notifications').columns(['user_id', 'created_at', 'id']).execute();
      await db.schema.dropIndex('notifications_recent').execute();
    },
  };
}
