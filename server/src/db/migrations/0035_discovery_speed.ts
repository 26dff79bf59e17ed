import { type Kysely, type Migration } from 'kysely';

export function migrationDiscoverySpeed(): Migration {
  return {
    async up(db: Kysely<any>) {
      // Trending, worked out by a scheduled job and read by position: summing a week of views and
      // likes on every request took most of a second at a million videos. Rows may name videos that
      // have since stopped being listed or were deleted; readers join the videos and skip them.
      await db.schema
        .createTable('trending_videos')
        .addColumn('position', 'integer', (c) => c.primaryKey())
        .addColumn('video_id', 'text', (c) => c.notNull())
        .addColumn('score', 'double precision', (c) => c.notNull())
        .addColumn('built_at', 'bigint', (c) => c.notNull())
        .execute();
      // Up next reads a video's most recent viewers: by time within the video, not all its viewers sorted.
      await db.schema.createIndex('watch_history_video_recent').on('watch_history').columns(['video_id', 'watched_at']).execute();
      await db.schema.dropIndex('watch_history_video').execute();
    },
  };
}
