import type { Kysely, Migration } from 'kysely';

/**
 * The videos other servers were told of: a row from the Create sent to the channel's followers
 * until the Delete. It outlives the video's own row (no key on videos), so a deleted video's
 * Delete still knows which channel sends it; the video's updated_at as last sent says whether an
 * edit has yet to go out as an Update.
 */
export function migrationFederatedVideos(): Migration {
  const bigint = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('federation_sent_videos')
        .addColumn('video_id', 'text', (c) => c.primaryKey())
        .addColumn('channel_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('video_updated_at', bigint, (c) => c.notNull())
        .addColumn('sent_at', bigint, (c) => c.notNull())
        .execute();
    },
  };
}
