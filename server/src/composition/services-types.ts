import type { AdminMediaService } from '../modules/admin/admin-media.service.js';
import type { AdminUsersService } from '../modules/admin/admin-users.service.js';
import type { AuditLogService } from '../modules/audit/audit-log.service.js';
import type { BackupsService } from '../modules/backups/backups.service.js';
import type { CaptionsService } from '../modules/captions/captions.service.js';
import type { CommentsService } from '../modules/comments/comments.service.js';
import type { DemoCleanup } from '../modules/demo/demo-cleanup.js';
import type { DiscoveryService } from '../modules/discovery/discovery.service.js';
import type { InstanceService } from '../modules/instance/instance.service.js';
import type { LikesService } from '../modules/likes/likes.service.js';
import type { ModerationService } from '../modules/moderation/moderation.service.js';
import type { NotificationsService } from '../modules/notifications/notifications.service.js';
import type { VideoEvents } from '../modules/videos/video-events.js';
import type { PlaylistsService } from '../modules/playlists/playlists.service.js';
import type { FeedsService } from '../modules/previews/feeds.service.js';
import type { PreviewsService } from '../modules/previews/previews.service.js';
import type { SearchService } from '../modules/search/search.service.js';
import type { SubscriptionsFeedService } from '../modules/subscriptions/subscriptions-feed.service.js';
import type { SubscriptionsService } from '../modules/subscriptions/subscriptions.service.js';
import type { UploadsService } from '../modules/uploads/uploads.service.js';
import type { UploadStore } from '../modules/uploads/upload-store.js';
import type { SingleSignOnService } from '../modules/single-sign-on/single-sign-on.service.js';
import type { StudioService } from '../modules/studio/studio.service.js';
import type { Housekeeping } from '../housekeeping.js';
import type { PasskeysService } from '../modules/users/passkeys.service.js';
import type { AccountEmailService } from '../modules/users/account-email.service.js';
import type { AccountLanguageService } from '../modules/users/account-language.service.js';
import type { SessionService } from '../modules/users/session.service.js';
import type { StartUpAccounts } from '../modules/users/start-up-accounts.js';
import type { UsersService } from '../modules/users/users.service.js';
import type { TwoFactorService } from '../modules/users/two-factor.service.js';
import type { FederationSite } from './federation.js';
import type { Live } from './live.js';
import type { LiveChat } from './live-chat.js';
import type { PublishScheduler } from '../modules/videos/scheduled-publishing.js';
import type { VideoProcessing } from '../modules/videos/video-processing.js';
import type { MediaTools } from '../media/media-tools.js';
import type { VideoStatsService } from '../modules/videos/video-stats.service.js';
import type { VideosService } from '../modules/videos/videos.service.js';
import type { WatchHistoryService } from '../modules/watch-history/watch-history.service.js';

/** Every service of one process, each built once. */
export interface Services {
  users: UsersService;
  /** The ADMIN_EMAILS grants and the demo account, made at start. */
  startUpAccounts: StartUpAccounts;
  sessions: SessionService;
  /** Two-factor sign-in (TOTP). */
  twoFactor: TwoFactorService;
  passkeys: PasskeysService;
  /** Password resets and address checks by mailed links. */
  accountEmail: AccountEmailService;
  /** The language an account chose, for its mails. */
  accountLanguage: AccountLanguageService;
  /** Signing in with the operator's OpenID Connect providers, and linking them to accounts. */
  singleSignOn: SingleSignOnService;
  /** The site's settings that admins edit (name, sign-up mode, limits). */
  instance: InstanceService;
  /** Notifications: created by the modules whose events they tell of, delivered live by its bus. */
  notifications: NotificationsService;
  /** What happens to a stored upload: the pipeline, or (in some tests) nothing. */
  processing: VideoProcessing;
  /** Durable jobs that turn scheduled videos public on time. */
  publishing: PublishScheduler;
  search: SearchService;
  videos: VideosService;
  videoStats: VideoStatsService;
  captions: CaptionsService;
  /** Live videos: making them, their keys, ending them, the list of what is on air; the RTMP ingest. */
  live: Live;
  /** The chat of lives and their viewer counts. */
  liveChat: LiveChat;
  comments: CommentsService;
  likes: LikesService;
  playlists: PlaylistsService;
  subscriptions: SubscriptionsService;
  subscriptionsFeed: SubscriptionsFeedService;
  discovery: DiscoveryService;
  uploads: UploadsService;
  /** Resumable uploads' bytes while they arrive. */
  uploadStore: UploadStore;
  watchHistory: WatchHistoryService;
  moderation: ModerationService;
  adminUsers: AdminUsersService;
  adminMedia: AdminMediaService;
  feeds: FeedsService;
  previews: PreviewsService;
  /** Removes the demo account's old content; null when the demo account is off in the config. */
  demoCleanup: DemoCleanup | null;
  studio: StudioService;
  audit: AuditLogService;
  /** Backups as the admin area shows them, and the ones admins ask for. */
  backups: BackupsService;
  /** Periodic tidying: view records, abandoned uploads, the demo account's content, orphaned files. */
  housekeeping: Housekeeping;
  /** ActivityPub with other sites; null when FEDERATION is off. */
  federation: FederationSite | null;
}

/** What the services take from the job side of the process, built before them. */
export interface ServiceJobs {
  processing: VideoProcessing;
  publishing: PublishScheduler;
  notifications: NotificationsService;
  /** What services that change videos tell (notifications, and federation's deliveries when it is on). */
  videoEvents: VideoEvents;
  uploadStore: UploadStore;
  /** The ffmpeg and ffprobe of the process, with their limits. */
  media: MediaTools;
}
