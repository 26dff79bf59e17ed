import type { Kysely, Migration } from 'kysely';

/**
 * The chat of a live: its messages (newest read first, by video and time), the viewers kept out of
 * it for a while (one ban per live and user: a new one replaces the old), and the live's own slow
 * mode (null: the site's default, LIVE_CHAT_SLOW_MODE_SECONDS).
 */
export function migrationLiveChat(): Migration {
  const bigint = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('live_chat_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('created_at', bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('live_chat_messages_recent').on('live_chat_messages').columns(['video_id', 'created_at']).execute();
      await db.schema
        .createTable('live_chat_bans')
        .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('until', bigint, (c) => c.notNull())
        .addColumn('banned_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('live_chat_bans_pk', ['video_id', 'user_id'])
        .execute();
      await db.schema.alterTable('lives').addColumn('chat_slow_mode_seconds', 'integer').execute();
    },
  };
}
