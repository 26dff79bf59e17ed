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
import { migrationBackupRuns } from './migrations/0045_backup_runs.js';
import { migrationSessionAddresses } from './migrations/0048_session_addresses.js';
import { migrationTwoFactor } from './migrations/0049_two_factor.js';
import { migrationPasskeys } from './migrations/0050_passkeys.js';
import { migrationAccountEmail } from './migrations/0051_account_email.js';
import { migrationSingleSignOn } from './migrations/0052_single_sign_on.js';
import { migrationLives } from './migrations/0053_lives.js';
import { migrationLiveChat } from './migrations/0054_live_chat.js';
import { migrationLiveAllowed } from './migrations/0055_live_allowed.js';
import { migrationLanguages } from './migrations/0056_languages.js';
import { migrationFederation } from './migrations/0057_federation.js';
import { migrationFederatedVideos } from './migrations/0058_federated_videos.js';
import { migrationFederationBlocks } from './migrations/0059_federation_blocks.js';
import { migrationRemoteChannels } from './migrations/0060_remote_channels.js';

/**
 * Every migration, one file each under migrations/. They are the same for both dialects apart from
 * search: SQLite gets an FTS5 table kept in step by triggers, PostgreSQL a generated tsvector column
 * with a GIN index. A new migration is a new file and one line here.
 */
export function migrations(dialect: Dialect): Record<string, Migration> {
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
    '0045_backup_runs': migrationBackupRuns(),
    '0048_session_addresses': migrationSessionAddresses(),
    '0049_two_factor': migrationTwoFactor(),
    '0050_passkeys': migrationPasskeys(),
    '0051_account_email': migrationAccountEmail(),
    '0052_single_sign_on': migrationSingleSignOn(),
    '0053_lives': migrationLives(),
    '0054_live_chat': migrationLiveChat(),
    '0055_live_allowed': migrationLiveAllowed(),
    '0056_languages': migrationLanguages(),
    '0057_federation': migrationFederation(),
    '0058_federated_videos': migrationFederatedVideos(),
    '0059_federation_blocks': migrationFederationBlocks(),
    '0060_remote_channels': migrationRemoteChannels(),
  };
}

/**
 * Told what a start is about to migrate, before anything is applied: the pending migrations and those
 * applied before (none on a new database). Throwing stops the start with nothing migrated.
 */
export type BeforeMigrating = (plan: { pending: string[]; applied: string[] }) => Promise<void>;

/**
 * Applies every pending migration in one transaction, so a failure leaves the database as it was
 * before the start, not half-way through a migration or between two of them. Kysely's Migrator
 * does that only where the dialect's adapter says DDL is transactional: the SQLite connection is
 * made with an adapter that says so (client.ts), and this refuses one that does not.
 */
export async function migrateToLatest(
  db: Kysely<any>,
  dialect: Dialect,
  opts: { beforeMigrating?: BeforeMigrating; migrations?: Record<string, Migration> } = {},
): Promise<void> {
  if (!db.getExecutor().adapter.supportsTransactionalDdl) {
    throw new Error('Database migrations need a connection that runs them in a transaction (see openDatabase)');
  }
  const all = opts.migrations ?? migrations(dialect);
  const provider: MigrationProvider = { getMigrations: async () => all };
  // Migrations are independent of each other's order within a release, so a database that already
  // ran a later-numbered one still takes an earlier-numbered one that arrived afterwards.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  if (opts.beforeMigrating) {
    const known = await migrator.getMigrations();
    const pending = known.filter((m) => !m.executedAt).map((m) => m.name);
    if (pending.length) await opts.beforeMigrating({ pending, applied: known.filter((m) => m.executedAt).map((m) => m.name) });
  }
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = oneLine(error instanceof Error ? error.message : String(error));
    const which = failed ? `Database migration ${failed.migrationName} failed` : 'Database migrations could not run';
    throw new Error(`${which}: ${reason}; the database was left as it was`);
  }
}

/** The reason as one line: what an operator reads on stderr when the start stops. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
