import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../dialect.js';

export function migrationInitial(dialect: Dialect): Migration {
  const bigint = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('full_name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('avatar_key', 'text')
        .addColumn('cover_key', 'text')
        .addColumn('is_demo', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('subscribers_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('videos_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', bigint, (c) => c.notNull())
        .addColumn('updated_at', bigint, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('user_agent', 'text')
        .addColumn('created_at', bigint, (c) => c.notNull())
        .addColumn('last_used_at', bigint, (c) => c.notNull())
        .addColumn('expires_at', bigint, (c) => c.notNull())
        .addColumn('revoked_at', bigint)
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('refresh_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('created_at', bigint, (c) => c.notNull())
        .addColumn('used_at', bigint)
        .execute();
      await db.schema.createIndex('refresh_tokens_session').on('refresh_tokens').column('session_id').execute();

      await db.schema
        .createTable('videos')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('owner_text', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('duration', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('views', bigint, (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failure_reason', 'text')
        .addColumn('is_published', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('source_key', 'text')
        .addColumn('video_key', 'text')
        .addColumn('hls_key', 'text')
        .addColumn('storyboard_key', 'text')
        .addColumn('thumbnail_key', 'text', (c) => c.notNull())
        .addColumn('likes_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('comments_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', bigint, (c) => c.notNull())
        .addColumn('updated_at', bigint, (c) => c.notNull())
        .execute();
      // Public lists filter on (is_published, status) and sort by one of four columns.
      for (const col of ['created_at', 'views', 'duration', 'title']) {
        await db.schema.createIndex(`videos_public_${col}`).on('videos').columns(['is_published', 'status', col]).execute();
        await db.schema.createIndex(`videos_owner_${col}`).on('videos').columns(['owner_id', col]).execute();
      }

      await db.schema
        .createTable('comments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id').onDelete('cascade'))
        .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('likes_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', bigint, (c) => c.notNull())
        .addColumn('updated_at', bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('comments_video_created').on('comments').columns(['video_id', 'created_at']).execute();
      await db.schema.createIndex('comments_owner').on('comments').column('owner_id').execute();

      await db.schema
        .createTable('likes')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('created_at', bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('likes_pk', ['user_id', 'target_type', 'target_id'])
        .execute();
      await db.schema.createIndex('likes_target').on('likes').columns(['target_type', 'target_id']).execute();
      await db.schema.createIndex('likes_user_recent').on('likes').columns(['user_id', 'target_type', 'created_at']).execute();

      await db.schema
        .createTable('subscriptions')
        .addColumn('subscriber_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('channel_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('subscriptions_pk', ['subscriber_id', 'channel_id'])
        .execute();
      await db.schema.createIndex('subscriptions_channel').on('subscriptions').column('channel_id').execute();

      await db.schema
        .createTable('playlists')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('videos_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', bigint, (c) => c.notNull())
        .addColumn('updated_at', bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('playlists_owner').on('playlists').columns(['owner_id', 'created_at']).execute();

      await db.schema
        .createTable('playlist_videos')
        .addColumn('playlist_id', 'text', (c) => c.notNull().references('playlists.id').onDelete('cascade'))
        .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('added_at', bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('playlist_videos_pk', ['playlist_id', 'video_id'])
        .execute();
      await db.schema.createIndex('playlist_videos_order').on('playlist_videos').columns(['playlist_id', 'position']).execute();
      await db.schema.createIndex('playlist_videos_video').on('playlist_videos').column('video_id').execute();

      await db.schema
        .createTable('watch_history')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id').onDelete('cascade'))
        .addColumn('watched_at', bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('watch_history_pk', ['user_id', 'video_id'])
        .execute();
      await db.schema.createIndex('watch_history_recent').on('watch_history').columns(['user_id', 'watched_at']).execute();
      await db.schema.createIndex('watch_history_video').on('watch_history').column('video_id').execute();

      await db.schema
        .createTable('view_events')
        .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id').onDelete('cascade'))
        .addColumn('viewer_key', 'text', (c) => c.notNull())
        .addColumn('counted_at', bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('view_events_pk', ['video_id', 'viewer_key'])
        .execute();

      await db.schema
        .createTable('jobs')
        .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(3))
        .addColumn('run_at', bigint, (c) => c.notNull())
        .addColumn('locked_by', 'text')
        .addColumn('locked_until', bigint)
        .addColumn('last_error', 'text')
        .addColumn('created_at', bigint, (c) => c.notNull())
        .addColumn('updated_at', bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('jobs_ready').on('jobs').columns(['status', 'priority', 'run_at']).execute();

      if (dialect === 'sqlite') {
        await sql`CREATE VIRTUAL TABLE videos_fts USING fts5(
          title, owner_text, description, content='videos', content_rowid='rowid',
          tokenize='unicode61 remove_diacritics 2', prefix='2 3 4')`.execute(db);
        await sql`CREATE TRIGGER videos_fts_insert AFTER INSERT ON videos BEGIN
          INSERT INTO videos_fts(rowid, title, owner_text, description)
          VALUES (new.rowid, new.title, new.owner_text, new.description); END`.execute(db);
        await sql`CREATE TRIGGER videos_fts_delete AFTER DELETE ON videos BEGIN
          INSERT INTO videos_fts(videos_fts, rowid, title, owner_text, description)
          VALUES ('delete', old.rowid, old.title, old.owner_text, old.description); END`.execute(db);
        await sql`CREATE TRIGGER videos_fts_update AFTER UPDATE OF title, owner_text, description ON videos BEGIN
          INSERT INTO videos_fts(videos_fts, rowid, title, owner_text, description)
          VALUES ('delete', old.rowid, old.title, old.owner_text, old.description);
          INSERT INTO videos_fts(rowid, title, owner_text, description)
          VALUES (new.rowid, new.title, new.owner_text, new.description); END`.execute(db);
      } else {
        await sql`ALTER TABLE videos ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('simple', coalesce(title, '')), 'A') ||
          setweight(to_tsvector('simple', coalesce(owner_text, '')), 'B') ||
          setweight(to_tsvector('simple', coalesce(description, '')), 'C')) STORED`.execute(db);
        await sql`CREATE INDEX videos_search ON videos USING GIN (search_vector)`.execute(db);
      }
    },
  };
}
