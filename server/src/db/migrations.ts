import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Dialect } from './dialect.js';
import { migrationInitial } from './migrations/0001_initial.js';
import { migrationSearchSplitsDottedWords } from './migrations/0002_search_splits_dotted_words.js';
import { migrationCounters } from './migrations/0003_counters.js';
import { migrationVideoAccess } from './migrations/0004_video_access.js';
import { migrationDailyViews } from './migrations/0005_daily_views.js';
import { migrationFairJobOrder } from './migrations/0010_fair_job_order.js';
import { migrationResumableUploads } from './migrations/0012_resumable_uploads.js';
import { migrationSignupApprovalAndAuditLog } from './migrations/0014_signup_approval_and_audit_log.js';
import { migrationReportsAndAppeals } from './migrations/0015_reports_and_appeals.js';
import { migrationCommentReplies } from './migrations/0024_comment_replies.js';
import { migrationNotifications } from './migrations/0025_notifications.js';
import { migrationWatchPosition } from './migrations/0026_watch_position.js';
import { migrationTrending } from './migrations/0027_trending.js';
import { migrationPlaylistVisibility } from './migrations/0029_playlist_visibility.js';
import { migrationCommentOwnerBanned } from './migrations/0030_comment_owner_banned.js';
import { migrationCaptions } from './migrations/0028_captions.js';
import { migrationPageBuckets } from './migrations/0033_page_buckets.js';
import { migrationRepliesIndexOfRepliesOnly } from './migrations/0034_replies_index_of_replies_only.js';
import { migrationDiscoverySpeed } from './migrations/0035_discovery_speed.js';
import { migrationNotificationsPageOrder } from './migrations/0036_notifications_page_order.js';
import { migrationRelatedRankings } from './migrations/0037_related_rankings.js';
import { migrationSearchWords } from './migrations/0038_search_words.js';
import { migrationPageBucketVersions } from './migrations/0039_page_bucket_versions.js';
import { migrationSqliteSearchWords } from './migrations/0043_sqlite_search_words.js';
import { migrationSessionAddresses } from './migrations/0048_session_addresses.js';

/**
 * Every migration, one file each under migrations/. They are the same for both dialects apart from
 * search: SQLite gets an FTS5 table kept in step by triggers, PostgreSQL a generated tsvector column
 * with a GIN index. A new migration is a new file and one line here.
 */
function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001_initial': migrationInitial(dialect),
    '0002_search_splits_dotted_words': migrationSearchSplitsDottedWords(dialect),
    '0003_counters': migrationCounters(),
    '0004_video_access': migrationVideoAccess(),
    '0005_daily_views': migrationDailyViews(),
    '0010_fair_job_order': migrationFairJobOrder(),
    '0012_resumable_uploads': migrationResumableUploads(),
    '0014_signup_approval_and_audit_log': migrationSignupApprovalAndAuditLog(),
    '0015_reports_and_appeals': migrationReportsAndAppeals(),
    '0024_comment_replies': migrationCommentReplies(),
    '0025_notifications': migrationNotifications(),
    '0026_watch_position': migrationWatchPosition(),
    '0027_trending': migrationTrending(),
    '0029_playlist_visibility': migrationPlaylistVisibility(),
    '0030_comment_owner_banned': migrationCommentOwnerBanned(),
    '0028_captions': migrationCaptions(dialect),
    '0033_page_buckets': migrationPageBuckets(dialect),
    '0034_replies_index_of_replies_only': migrationRepliesIndexOfRepliesOnly(),
    '0035_discovery_speed': migrationDiscoverySpeed(),
    '0036_notifications_page_order': migrationNotificationsPageOrder(),
    '0037_related_rankings': migrationRelatedRankings(),
    '0038_search_words': migrationSearchWords(dialect),
    '0039_page_bucket_versions': migrationPageBucketVersions(dialect),
    '0043_sqlite_search_words': migrationSqliteSearchWords(dialect),
    '0048_session_addresses': migrationSessionAddresses(),
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
