import type { Kysely, Migration } from 'kysely';

/**
 * Lives: a live is a video with a live state, one row per video. The stream key is kept twice: a
 * SHA-256 hash (unique) that the ingest looks a connecting encoder up by, and the key itself sealed
 * with the site's secret box, so that its owner can read it again. `health` is the encoder's stream
 * as last seen (JSON: codecs, size, frame rate, bitrate). `ingest_owner` is the process (its owner
 * tag) whose ingest has the live on air, so that a start settles only what a dead process left.
 */
export function migrationLives(): Migration {
  const bigint = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('lives')
        .addColumn('video_id', 'text', (c) => c.primaryKey().references('videos.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('stream_key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('stream_key_sealed', 'text', (c) => c.notNull())
        .addColumn('permanent', 'integer', (c) => c.notNull())
        .addColumn('save_replay', 'integer', (c) => c.notNull())
        .addColumn('scheduled_start', bigint)
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('started_at', bigint)
        .addColumn('ended_at', bigint)
        .addColumn('last_data_at', bigint)
        .addColumn('health', 'text')
        .addColumn('ingest_owner', 'text')
        .addColumn('viewers', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('lives_status_viewers').on('lives').columns(['status', 'viewers']).execute();
      await db.schema.createIndex('lives_user').on('lives').column('user_id').execute();
    },
  };
}
