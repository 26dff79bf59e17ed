import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Dialect } from './dialect.js';

/**
 * Migrations are the same for both dialects apart from search: SQLite gets an FTS5 table kept in
 * step by triggers, PostgreSQL a generated tsvector column with a GIN index.
 */
function migrations(dialect: Dialect): Record<string, Migration> {
  const bigint = 'bigint' as const;
  return {
    '0001_initial': {
      async up(db: Kysely<any>) {
        await db.schema.createTable('settings')
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .execute();

        await db.schema.createTable('users')
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

        await db.schema.createTable('sessions')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('user_agent', 'text')
          .addColumn('created_at', bigint, (c) => c.notNull())
          .addColumn('last_used_at', bigint, (c) => c.notNull())
          .addColumn('expires_at', bigint, (c) => c.notNull())
          .addColumn('revoked_at', bigint)
          .execute();
        await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

        await db.schema.createTable('refresh_tokens')
          .addColumn('token_hash', 'text', (c) => c.primaryKey())
          .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
          .addColumn('created_at', bigint, (c) => c.notNull())
          .addColumn('used_at', bigint)
          .execute();
        await db.schema.createIndex('refresh_tokens_session').on('refresh_tokens').column('session_id').execute();

        await db.schema.createTable('videos')
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
          await db.schema.createIndex(`videos_public_${col}`).on('videos')
            .columns(['is_published', 'status', col]).execute();
          await db.schema.createIndex(`videos_owner_${col}`).on('videos')
            .columns(['owner_id', col]).execute();
        }

        await db.schema.createTable('comments')
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

        await db.schema.createTable('likes')
          .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('target_type', 'text', (c) => c.notNull())
          .addColumn('target_id', 'text', (c) => c.notNull())
          .addColumn('created_at', bigint, (c) => c.notNull())
          .addPrimaryKeyConstraint('likes_pk', ['user_id', 'target_type', 'target_id'])
          .execute();
        await db.schema.createIndex('likes_target').on('likes').columns(['target_type', 'target_id']).execute();
        await db.schema.createIndex('likes_user_recent').on('likes').columns(['user_id', 'target_type', 'created_at']).execute();

        await db.schema.createTable('subscriptions')
          .addColumn('subscriber_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('channel_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('created_at', bigint, (c) => c.notNull())
          .addPrimaryKeyConstraint('subscriptions_pk', ['subscriber_id', 'channel_id'])
          .execute();
        await db.schema.createIndex('subscriptions_channel').on('subscriptions').column('channel_id').execute();

        await db.schema.createTable('playlists')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull())
          .addColumn('videos_count', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', bigint, (c) => c.notNull())
          .addColumn('updated_at', bigint, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('playlists_owner').on('playlists').columns(['owner_id', 'created_at']).execute();

        await db.schema.createTable('playlist_videos')
          .addColumn('playlist_id', 'text', (c) => c.notNull().references('playlists.id').onDelete('cascade'))
          .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id').onDelete('cascade'))
          .addColumn('position', 'integer', (c) => c.notNull())
          .addColumn('added_at', bigint, (c) => c.notNull())
          .addPrimaryKeyConstraint('playlist_videos_pk', ['playlist_id', 'video_id'])
          .execute();
        await db.schema.createIndex('playlist_videos_order').on('playlist_videos').columns(['playlist_id', 'position']).execute();
        await db.schema.createIndex('playlist_videos_video').on('playlist_videos').column('video_id').execute();

        await db.schema.createTable('watch_history')
          .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id').onDelete('cascade'))
          .addColumn('watched_at', bigint, (c) => c.notNull())
          .addPrimaryKeyConstraint('watch_history_pk', ['user_id', 'video_id'])
          .execute();
        await db.schema.createIndex('watch_history_recent').on('watch_history').columns(['user_id', 'watched_at']).execute();
        await db.schema.createIndex('watch_history_video').on('watch_history').column('video_id').execute();

        await db.schema.createTable('view_events')
          .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id').onDelete('cascade'))
          .addColumn('viewer_key', 'text', (c) => c.notNull())
          .addColumn('counted_at', bigint, (c) => c.notNull())
          .addPrimaryKeyConstraint('view_events_pk', ['video_id', 'viewer_key'])
          .execute();

        await db.schema.createTable('jobs')
          .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
            dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement())
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
    },
    '0002_search_splits_dotted_words': {
      // PostgreSQL's parser keeps "john.doe", "node.js" or "a@b" as one lexeme, so "doe" or "js"
      // found nothing there while SQLite's tokenizer splits them. Turning those joiners into spaces
      // makes both databases find the same words.
      async up(db: Kysely<any>) {
        if (dialect !== 'postgres') return;
        await sql`ALTER TABLE videos DROP COLUMN search_vector`.execute(db);
        await sql`ALTER TABLE videos ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('simple', translate(coalesce(title, ''), './@:', '    ')), 'A') ||
          setweight(to_tsvector('simple', translate(coalesce(owner_text, ''), './@:', '    ')), 'B') ||
          setweight(to_tsvector('simple', translate(coalesce(description, ''), './@:', '    ')), 'C')) STORED`.execute(db);
        await sql`CREATE INDEX videos_search ON videos USING GIN (search_vector)`.execute(db);
      },
    },
    '0003_counters': {
      // Site-wide totals kept beside the rows they count, so the home feed's page count never
      // scans the videos table.
      async up(db: Kysely<any>) {
        await db.schema.createTable('counters')
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('value', bigint, (c) => c.notNull().defaultTo(0))
          .execute();
        await sql`INSERT INTO counters (key, value)
          SELECT 'public_videos', count(*) FROM videos WHERE is_published = 1 AND status = 'ready'`.execute(db);
      },
    },
    '0004_video_access': {
      // Who may see a video is decided in one place (modules/videos/video-access.ts) and kept in
      // two flags beside the row, so every list, search and count filters on one indexed column:
      // `listed` (in lists, search, channels and feeds for everyone) and `watchable` (playable by
      // anyone with the link). Visibility replaces the published flag; moderation and bans feed
      // the same flags.
      async up(db: Kysely<any>) {
        await db.schema.alterTable('users').addColumn('role', 'text', (c) => c.notNull().defaultTo('user')).execute();
        await db.schema.alterTable('users').addColumn('banned_at', bigint).execute();
        await db.schema.alterTable('users').addColumn('ban_reason', 'text').execute();
        await db.schema.alterTable('videos').addColumn('visibility', 'text', (c) => c.notNull().defaultTo('public')).execute();
        await db.schema.alterTable('videos').addColumn('publish_at', bigint).execute();
        await db.schema.alterTable('videos').addColumn('hidden_at', bigint).execute();
        await db.schema.alterTable('videos').addColumn('hidden_reason', 'text').execute();
        await db.schema.alterTable('videos').addColumn('listed', 'integer', (c) => c.notNull().defaultTo(0)).execute();
        await db.schema.alterTable('videos').addColumn('watchable', 'integer', (c) => c.notNull().defaultTo(0)).execute();
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
    },
    '0005_daily_views': {
      // Counted views per video per UTC day, written with each counted view: the studio's
      // views-per-day chart and the trending list read these instead of the view records, which
      // are kept only for an hour.
      async up(db: Kysely<any>) {
        await db.schema.createTable('video_daily_views')
          .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id').onDelete('cascade'))
          .addColumn('day', 'integer', (c) => c.notNull())
          .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
          .addPrimaryKeyConstraint('video_daily_views_pk', ['video_id', 'day'])
          .execute();
        await db.schema.createIndex('video_daily_views_day').on('video_daily_views').columns(['day', 'video_id']).execute();
      },
    },
    '0010_fair_job_order': {
      // Jobs of one name are taken in fair order between uploaders: each job gets a rank one past
      // its uploader's last waiting job, and never below the lowest rank still waiting.
      async up(db: Kysely<any>) {
        await db.schema.alterTable('jobs').addColumn('fair_key', 'text').execute();
        await db.schema.alterTable('jobs').addColumn('fair_rank', 'integer', (c) => c.notNull().defaultTo(0)).execute();
        await db.schema.createIndex('jobs_fair').on('jobs').columns(['name', 'status', 'fair_key', 'fair_rank']).execute();
      },
    },
    '0014_signup_approval_and_audit_log': {
      // Sign-ups by approval need an account that exists but cannot sign in yet; every admin and
      // moderator action is written to an audit log. Its actor and target are plain text, not
      // foreign keys: the record outlives the accounts and videos it names.
      async up(db: Kysely<any>) {
        await db.schema.alterTable('users').addColumn('approval_pending', 'integer', (c) => c.notNull().defaultTo(0)).execute();
        await db.schema.createTable('audit_log')
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
    },
    '0012_resumable_uploads': {
      // Resumable (tus) uploads in progress, so their owner, size and expiry are known to every
      // API process; the bytes themselves live in the upload store (DATA_DIR/uploads or the bucket).
      // Each video keeps the size of its source for storage quotas, and a user may have quotas of
      // their own (null: the site's defaults).
      async up(db: Kysely<any>) {
        await db.schema.createTable('uploads')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('size', bigint, (c) => c.notNull())
          .addColumn('filename', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('claimed_at', bigint)
          .addColumn('created_at', bigint, (c) => c.notNull())
          .addColumn('expires_at', bigint, (c) => c.notNull())
          .execute();
        await db.schema.createIndex('uploads_owner').on('uploads').columns(['owner_id', 'created_at']).execute();
        await db.schema.createIndex('uploads_expires').on('uploads').columns(['expires_at']).execute();
        await db.schema.alterTable('videos').addColumn('source_bytes', bigint, (c) => c.notNull().defaultTo(0)).execute();
        await db.schema.createIndex('videos_owner_bytes').on('videos').columns(['owner_id', 'created_at', 'source_bytes']).execute();
        await db.schema.alterTable('users').addColumn('quota_bytes', bigint).execute();
        await db.schema.alterTable('users').addColumn('daily_quota_bytes', bigint).execute();
      },
    },
    '0015_reports_and_appeals': {
      // Reports of videos, comments and channels, one open report per person and target (a partial
      // unique index, which both databases have); the owner's one appeal of a takedown is kept on
      // the video.
      async up(db: Kysely<any>) {
        await db.schema.createTable('reports')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('reporter_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('target_type', 'text', (c) => c.notNull())
          .addColumn('target_id', 'text', (c) => c.notNull())
          .addColumn('reason', 'text', (c) => c.notNull())
          .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('state', 'text', (c) => c.notNull().defaultTo('open'))
          .addColumn('resolution', 'text')
          .addColumn('resolved_by', 'text')
          .addColumn('resolved_at', bigint)
          .addColumn('created_at', bigint, (c) => c.notNull())
          .execute();
        await sql`CREATE UNIQUE INDEX reports_one_open ON reports (reporter_id, target_type, target_id) WHERE state = 'open'`.execute(db);
        await db.schema.createIndex('reports_queue').on('reports').columns(['state', 'target_type', 'target_id', 'created_at']).execute();
        await db.schema.alterTable('videos').addColumn('appeal_text', 'text').execute();
        await db.schema.alterTable('videos').addColumn('appealed_at', bigint).execute();
      },
    },
  };
}

export async function migrateToLatest(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  // Migrations are independent of each other's order within a release, so a database that already
  // ran a later-numbered one still takes an earlier-numbered one that arrived afterwards.
  const { error, results } = await new Migrator({ db, provider, allowUnorderedMigrations: true }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
  }
}
