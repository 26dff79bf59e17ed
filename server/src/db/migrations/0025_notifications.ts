import type { Kysely, Migration } from 'kysely';

export function migrationNotifications(): Migration {
  const bigint = 'bigint' as const;
  return {
    // One row per recipient and event: the unique event key makes "once per event" hold when the
    // same event is reported twice (a job retried, two processes racing).
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('notifications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('event_key', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('video_id', 'text', (c) => c.references('videos.id').onDelete('cascade'))
        .addColumn('comment_id', 'text', (c) => c.references('comments.id').onDelete('cascade'))
        .addColumn('reason', 'text')
        .addColumn('read_at', bigint)
        .addColumn('created_at', bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('notifications_once').on('notifications').columns(['user_id', 'event_key']).unique().execute();
      await db.schema.createIndex('notifications_recent').on('notifications').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('notifications_unread').on('notifications').columns(['user_id', 'read_at']).execute();
    },
  };
}
