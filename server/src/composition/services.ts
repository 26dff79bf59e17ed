import path from 'node:path';
import type { AppContext } from '../app-context.js';
import { AdminMediaService } from '../modules/admin/admin-media.service.js';
import { AdminStatsRepository } from '../modules/admin/admin-stats.repository.js';
import { AdminUsersRepository } from '../modules/admin/admin-users.repository.js';
import { AdminUsersService } from '../modules/admin/admin-users.service.js';
import { AdminVideosRepository } from '../modules/admin/admin-videos.repository.js';
import { AuditLogRepository } from '../modules/audit/audit-log.repository.js';
import { AuditLogService } from '../modules/audit/audit-log.service.js';
import { nextBackupAt } from '../modules/backups/backup-jobs.js';
import { BackupsService } from '../modules/backups/backups.service.js';
import { CaptionsRepository } from '../modules/captions/captions.repository.js';
import { CaptionsService } from '../modules/captions/captions.service.js';
import { CommentsRepository } from '../modules/comments/comments.repository.js';
import { CommentsService } from '../modules/comments/comments.service.js';
import { DemoCleanup } from '../modules/demo/demo-cleanup.js';
import { DemoContentRepository } from '../modules/demo/demo-content.repository.js';
import { DiscoveryRepository } from '../modules/discovery/discovery.repository.js';
import { DiscoveryService } from '../modules/discovery/discovery.service.js';
import { TrendingRepository } from '../modules/discovery/trending.repository.js';
import { InstanceSettingsRepository } from '../modules/instance/instance-settings.repository.js';
import { InstanceService } from '../modules/instance/instance.service.js';
import { LikesRepository } from '../modules/likes/likes.repository.js';
import { LikesService } from '../modules/likes/likes.service.js';
import { AccountBansRepository } from '../modules/moderation/account-bans.repository.js';
import { ModerationRepository } from '../modules/moderation/moderation.repository.js';
import { ModerationService } from '../modules/moderation/moderation.service.js';
import { ReportsRepository } from '../modules/moderation/reports.repository.js';
import { Passwords } from '../modules/users/passwords.js';
import { PlaylistsRepository } from '../modules/playlists/playlists.repository.js';
import { PlaylistsService } from '../modules/playlists/playlists.service.js';
import { FeedsService } from '../modules/previews/feeds.service.js';
import { PreviewsService } from '../modules/previews/previews.service.js';
import { createSearch } from '../modules/search/search.factory.js';
import { SubscriptionsFeedRepository } from '../modules/subscriptions/subscriptions-feed.repository.js';
import { SubscriptionsFeedService } from '../modules/subscriptions/subscriptions-feed.service.js';
import { SubscriptionsRepository } from '../modules/subscriptions/subscriptions.repository.js';
import { SubscriptionsService } from '../modules/subscriptions/subscriptions.service.js';
import { StorageQuota } from '../modules/videos/storage-quota.js';
import { UploadsRepository } from '../modules/uploads/uploads.repository.js';
import { UploadsService } from '../modules/uploads/uploads.service.js';
import { IdentitiesRepository } from '../modules/single-sign-on/identities.repository.js';
import { OpenIdClients } from '../modules/single-sign-on/openid-clients.js';
import { SignInFlowsRepository } from '../modules/single-sign-on/sign-in-flows.repository.js';
import { SingleSignOnService } from '../modules/single-sign-on/single-sign-on.service.js';
import { StudioRepository } from '../modules/studio/studio.repository.js';
import { StudioService } from '../modules/studio/studio.service.js';
import { settleInterruptedBackups } from '../backup/backup-folder.js';
import { BackupRunsRepository } from '../backup/backup-runs.repository.js';
import { Housekeeping } from '../housekeeping.js';
import { sweepOrphans } from '../orphan-sweep.js';
import { OrphanSweepRepository } from '../orphan-sweep.repository.js';
import { PasskeysRepository } from '../modules/users/passkeys.repository.js';
import { PasskeysService } from '../modules/users/passkeys.service.js';
import { MailOutbox } from '../modules/mail/mail-outbox.js';
import { MailRepository } from '../modules/mail/mail.repository.js';
import { AccountEmailService } from '../modules/users/account-email.service.js';
import { AccountLanguageService } from '../modules/users/account-language.service.js';
import { AccountTokensRepository } from '../modules/users/account-tokens.repository.js';
import { SessionService } from '../modules/users/session.service.js';
import { SessionsRepository } from '../modules/users/sessions.repository.js';
import { loadSigningSecret } from '../modules/users/settings.repository.js';
import { UsersRepository } from '../modules/users/users.repository.js';
import { StartUpAccounts } from '../modules/users/start-up-accounts.js';
import { UsersService } from '../modules/users/users.service.js';
import { TwoFactorRepository } from '../modules/users/two-factor.repository.js';
import { TwoFactorService } from '../modules/users/two-factor.service.js';
import { SecretBox } from '../modules/users/totp.js';
import { buildFederation } from './federation.js';
import { buildLive } from './live.js';
import { buildLiveChat, liveEvents } from './live-chat.js';
import { VideoStatsRepository } from '../modules/videos/video-stats.repository.js';
import { VideoStatsService } from '../modules/videos/video-stats.service.js';
import { ViewEventsRepository } from '../modules/videos/view-events.repository.js';
import { StorageQuotaRepository } from '../modules/videos/storage-quota.repository.js';
import { VideoPresenter } from '../modules/videos/videos.presenter.js';
import { VideosRepository } from '../modules/videos/videos.repository.js';
import { VideosService } from '../modules/videos/videos.service.js';
import { WatchHistoryRepository } from '../modules/watch-history/watch-history.repository.js';
import { WatchHistoryService } from '../modules/watch-history/watch-history.service.js';

import type { ServiceJobs, Services } from './services-types.js';

export type { ServiceJobs, Services };

/**
 * Builds every repository and service once, by plain constructor injection, in the order their
 * dependencies point: users and the site's settings first, videos next, then what builds on videos.
 */
export async function buildServices(ctx: AppContext, jobs: ServiceJobs): Promise<Services> {
  const { config, db, dialect, storage, logger, defaultImages, answers } = ctx;
  const { processing, publishing, notifications, videoEvents, uploadStore, media } = jobs;

  // Sign-in asks the settings about the demo account, and turning it on creates it: the two lean on each other.
  const sessions = new SessionService(new SessionsRepository(db), await loadSigningSecret(db), { reuseGraceMs: config.refreshReuseGraceMs });
  let users: UsersService | null = null;
  const instance = new InstanceService({
    settings: new InstanceSettingsRepository(db),
    config,
    ensureDemoAccount: () => startUpAccounts.ensureDemoAccount(config.demo),
    changes: answers,
    forgetLiveSessions: () => sessions.forgetLiveSessions(),
  });
  const userRows = new UsersRepository(db);
  const passwords = new Passwords(config.passwordCost);
  const startUpAccounts = new StartUpAccounts({ users: userRows, logger, adminEmails: config.adminEmails, passwords });
  let accountEmail: AccountEmailService | null = null;
  users = new UsersService({
    users: userRows,
    storage,
    logger,
    passwords,
    adminEmails: config.adminEmails,
    defaultImages,
    demoAccountOn: () => instance.demoAccountOn(),
    passwordSignInOn: () => instance.passwordSignInOn(),
    changes: answers,
    twoFactorEnabled: (userId) => twoFactor.enabled(userId),
    verification: { mode: config.emailVerification, requestCheck: (id, email, base, language) => accountEmail!.requestCheck(id, email, base, language) },
  });
  const twoFactor = new TwoFactorService({
    rows: new TwoFactorRepository(db),
    box: new SecretBox(await loadSigningSecret(db)),
    accounts: users,
    issuer: async () => (await instance.settings()).name,
    passwords,
  });
  accountEmail = new AccountEmailService({
    outbox: config.email ? new MailOutbox({ mails: new MailRepository(db), queue: ctx.queue }) : null,
    tokens: new AccountTokensRepository(db),
    users: userRows,
    accounts: users,
    sessions,
    verification: config.emailVerification,
    passwords,
  });

  const videoRows = new VideosRepository(db, dialect, config.pageBucketSpacing);
  const search = createSearch(db, dialect);
  const captions = new CaptionsService({
    captions: new CaptionsRepository(db),
    search,
    videos: videoRows,
    storage,
    logger,
    changes: answers,
  });
  const quota = new StorageQuota({ storedBytes: new StorageQuotaRepository(db), defaults: () => instance.quotaDefaults() });
  const videos = new VideosService({
    videos: videoRows,
    storage,
    defaultImages,
    processing,
    logger,
    media,
    tmpDir: ctx.tmpDir,
    publishing,
    quota,
    events: videoEvents,
    captions,
    search,
    changes: answers,
  });
  const shared = { storage, defaultImages, changes: answers };
  // Remote channels' videos arrive as the site's own are published: subscribers are told, cached answers dropped.
  const federation = buildFederation({
    config,
    db,
    dialect,
    storage,
    queue: ctx.queue,
    logger,
    events: videoEvents,
    commentEvents: notifications,
    changes: answers,
    answers,
  });
  const federated = federation?.interactions;
  const comments = new CommentsService({ comments: new CommentsRepository(db), ...shared, events: notifications, federated, logger });
  const likes = new LikesService({ likes: new LikesRepository(db), ...shared, federated, logger });
  const playlists = new PlaylistsService({ playlists: new PlaylistsRepository(db), ...shared });
  const subscriptions = new SubscriptionsService({ subscriptions: new SubscriptionsRepository(db), changes: answers, remote: federation?.remote });
  const moderation = new ModerationService({
    reports: new ReportsRepository(db),
    moderation: new ModerationRepository(db),
    bans: new AccountBansRepository(db),
    videos: videoRows,
    comments: new CommentsRepository(db),
    users: userRows,
    storage,
    logger,
    events: videoEvents,
    changes: answers,
    sessions,
  });
  const audit = new AuditLogRepository(db);
  const backupRuns = new BackupRunsRepository(db);
  const uploads = new UploadsService({
    uploads: new UploadsRepository(db),
    store: uploadStore,
    quota,
    videos,
    logger,
    tmpDir: ctx.tmpDir,
    instance,
    expiryMs: config.uploadExpiryMs,
  });
  const demoCleanup = config.demo.enabled
    ? new DemoCleanup({ content: new DemoContentRepository(db), videos, comments, likes, playlists, subscriptions, contentTtlMs: config.demo.contentTtlMs })
    : null;
  const orphans = {
    rows: new OrphanSweepRepository(db),
    storage,
    tmpDir: ctx.tmpDir,
    workBase: path.join(config.dataDir, 'work'),
    localStorageRoot: config.storage.kind === 'local' ? config.storage.root : null,
  };

  const presenter = new VideoPresenter(storage, defaultImages);
  const site = async () => {
    const s = await instance.settings();
    return { name: s.name, description: s.description };
  };
  const avatarUrl = (key: string | null) => (key ? storage.url(key) : defaultImages.avatar);
  const pages = { videos: videoRows, users: userRows, presenter, site, avatarUrl };
  const liveChat = buildLiveChat(ctx);

  return {
    users,
    startUpAccounts,
    sessions,
    twoFactor,
    passkeys: new PasskeysService({
      passkeys: new PasskeysRepository(db),
      accountForSignIn: (userId) => users.accountForSignIn(userId),
      siteName: async () => (await instance.settings()).name,
    }),
    accountEmail,
    accountLanguage: new AccountLanguageService({ users: userRows }),
    singleSignOn: new SingleSignOnService({
      clients: new OpenIdClients(config.oidcProviders),
      flows: new SignInFlowsRepository(db),
      identities: new IdentitiesRepository(db),
      accounts: users,
      signupMode: async () => (await instance.settings()).signupMode,
    }),
    instance,
    notifications,
    processing,
    publishing,
    uploadStore,
    search,
    videos,
    captions,
    live: await buildLive(
      ctx,
      { media, processing },
      {
        videoRows,
        videos,
        users: userRows,
        present: presenter,
        events: liveEvents(ctx, liveChat.service, notifications),
        liveSettings: () => instance.settings(),
      },
    ),
    liveChat,
    comments,
    likes,
    playlists,
    subscriptions,
    moderation,
    videoStats: new VideoStatsService({ stats: new VideoStatsRepository(db) }),
    subscriptionsFeed: new SubscriptionsFeedService({ feed: new SubscriptionsFeedRepository(db), storage, defaultImages }),
    discovery: new DiscoveryService({ discovery: new DiscoveryRepository(db), trending: new TrendingRepository(db, dialect), videos, search }),
    uploads,
    watchHistory: new WatchHistoryService({ history: new WatchHistoryRepository(db), videos }),
    adminUsers: new AdminUsersService({
      users: new AdminUsersRepository(db),
      stats: new AdminStatsRepository(db),
      moderation,
      sessions,
      changes: answers,
    }),
    adminMedia: new AdminMediaService({ videos: new AdminVideosRepository(db), audit, queue: ctx.queue, processing }),
    audit: new AuditLogService({ audit }),
    backups: new BackupsService({
      runs: backupRuns,
      queue: ctx.queue,
      audit,
      next: () => nextBackupAt(config.backups.cron),
      settings: { cron: config.backups.cron, keep: config.backups.keep, dir: config.backups.dir },
    }),
    studio: new StudioService({ studio: new StudioRepository(db), present: presenter }),
    feeds: new FeedsService(pages),
    previews: new PreviewsService(pages),
    demoCleanup,
    housekeeping: new Housekeeping({
      viewEvents: new ViewEventsRepository(db),
      uploads,
      demo: demoCleanup,
      orphans: { sweep: (now) => sweepOrphans(orphans, now) },
      backups: { settle: (now) => settleInterruptedBackups({ runs: backupRuns, backupDir: config.backups.dir }, now) },
      logger,
    }),
    federation,
  };
}
