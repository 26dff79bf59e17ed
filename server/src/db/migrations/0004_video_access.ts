import { type Kysely, type Migration, sql } from 'kysely';

export function migrationVideoAccess(): Migration {
  const bigint = 'bigint' as const;
  return {
    // Who may see a video is decided in one place (modules/videos/video-access.ts) and kept in
    // two flags beside the row, so every list, search and count filters on one indexed column:
    // `listed` (in lists, search, channels and feeds for everyone) and `watchable` (playable by
    // anyone with the link). Visibility replaces the published flag; moderation and bans feed
    // the same flags.
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('users')
        .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
        .execute();
      await db.schema.alterTable('users').addColumn('banned_at', bigint).execute();
      await db.schema.alterTable('users').addColumn('ban_reason', 'text').execute();
      await db.schema
        .alterTable('videos')
        .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('public'))
        .execute();
      await db.schema.alterTable('videos').addColumn('publish_at', bigint).execute();
      await db.schema.alterTable('videos').addColumn('hidden_at', bigint).execute();
      await db.schema.alterTable('videos').addColumn('hidden_reason', 'text').execute();
      await db.schema
        .alterTable('videos')
        .addColumn('listed', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('videos')
        .addColumn('watchable', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`UPDATE videos SET visibility = 'private' WHERE is_published = 0`.execute(db);
      await sql`UPDATE videos SET
        watchable = CASE WHEN status = 'ready' AND visibility <> 'private' THEN 1 ELSE 0 END,
        listed = CASE WHEN status = 'ready' AND visibility = 'public' THEN 1 ELSE 0 END`.execute(db);
      for (const col of ['created_at', 'views', 'duration', 'title']) {
        await db.schema.dropIndex(`videos_public_${col}`).execute();
        await db.schema.createIndex(`videos_listed_${col}`).on('videos').columns(['listed', col, 'id']).execute();
      }
      await db.schema.alterTable('videos').dropColumn('is_published').execute();
      await db.schema.createIndex('users_role').on('users').columns(['role']).execute();
    },
  };
}
