import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { adminRoutes } from '../modules/admin/admin.routes.js';
import { backupsRoutes } from '../modules/backups/backups.routes.js';
import { captionsRoutes } from '../modules/captions/captions.routes.js';
import { commentsRoutes } from '../modules/comments/comments.routes.js';
import { discoveryRoutes } from '../modules/discovery/discovery.routes.js';
import { instanceRoutes } from '../modules/instance/instance.routes.js';
import { likesRoutes } from '../modules/likes/likes.routes.js';
import { liveRoutes } from '../modules/live/live.routes.js';
import { liveChatRoutes } from '../modules/live-chat/live-chat.routes.js';
import { livePublishRoutes } from '../modules/live/live-publish.routes.js';
import { moderationRoutes } from '../modules/moderation/moderation.routes.js';
import { notificationsRoutes } from '../modules/notifications/notifications.routes.js';
import { playlistsRoutes } from '../modules/playlists/playlists.routes.js';
import { feedsRoutes } from '../modules/previews/feeds.routes.js';
import { remoteChannelsRoutes } from '../modules/federation/remote-channels.routes.js';
import { federationBlocksRoutes } from '../modules/federation/blocks.routes.js';
import { oembedRoutes } from '../modules/previews/oembed.routes.js';
import { singleSignOnRoutes } from '../modules/single-sign-on/single-sign-on.routes.js';
import { studioRoutes } from '../modules/studio/studio.routes.js';
import { subscriptionsRoutes } from '../modules/subscriptions/subscriptions.routes.js';
import { uploadsRoutes } from '../modules/uploads/uploads.routes.js';
import { accountEmailRoutes } from '../modules/users/account-email.routes.js';
import { accountLanguageRoutes } from '../modules/users/account-language.routes.js';
import { devicesRoutes } from '../modules/users/devices.routes.js';
import { twoFactorRoutes } from '../modules/users/two-factor.routes.js';
import { passkeysRoutes } from '../modules/users/passkeys.routes.js';
import { usersRoutes } from '../modules/users/users.routes.js';
import { videosRoutes } from '../modules/videos/videos.routes.js';
import { watchHistoryRoutes } from '../modules/watch-history/watch-history.routes.js';
import type { Services } from './services.js';

/** Every API module, each handed the services it serves, mounted under /api/v1 by the app. */
export function apiRoutes(ctx: AppContext, s: Services) {
  const { config, tmpDir, logger } = ctx;
  return async (api: FastifyInstance) => {
    await api.register(usersRoutes, { users: s.users, sessions: s.sessions, twoFactor: s.twoFactor, instance: s.instance, config, tmpDir });
    await api.register(twoFactorRoutes, { twoFactor: s.twoFactor, authPerMinute: config.rateLimits.authPerMinute });
    await api.register(devicesRoutes, { sessions: s.sessions });
    await api.register(passkeysRoutes, { passkeys: s.passkeys, users: s.users, sessions: s.sessions, config });
    await api.register(accountEmailRoutes, { accountEmail: s.accountEmail, config });
    await api.register(accountLanguageRoutes, { accountLanguage: s.accountLanguage });
    await api.register(singleSignOnRoutes, { singleSignOn: s.singleSignOn, sessions: s.sessions, config });
    await api.register(commentsRoutes, { comments: s.comments });
    await api.register(likesRoutes, { likes: s.likes });
    await api.register(subscriptionsRoutes, { subscriptions: s.subscriptions, feed: s.subscriptionsFeed });
    await api.register(playlistsRoutes, { playlists: s.playlists });
    await api.register(videosRoutes, { videos: s.videos, stats: s.videoStats, instance: s.instance, config, tmpDir });
    await api.register(discoveryRoutes, { discovery: s.discovery });
    await api.register(uploadsRoutes, { uploads: s.uploads, store: s.uploadStore, instance: s.instance, config, tmpDir, logger });
    await api.register(watchHistoryRoutes, { history: s.watchHistory, users: s.users });
    await api.register(studioRoutes, { studio: s.studio });
    await api.register(instanceRoutes, { instance: s.instance });
    await api.register(moderationRoutes, { moderation: s.moderation, audit: s.audit });
    await api.register(adminRoutes, { users: s.adminUsers, media: s.adminMedia });
    // Only a site that federates has servers to block.
    if (s.federation) {
      await api.register(federationBlocksRoutes, { blocks: s.federation.blocks });
      await api.register(remoteChannelsRoutes, { remote: s.federation.remote, users: s.users, config });
    }
    await api.register(backupsRoutes, { backups: s.backups });
    await api.register(notificationsRoutes, { notifications: s.notifications, logger });
    await api.register(oembedRoutes, { previews: s.previews, publicUrl: config.publicUrl });
    await api.register(captionsRoutes, { captions: s.captions, config, tmpDir });
    await api.register(liveRoutes, { live: s.live.service });
    await api.register(liveChatRoutes, { chat: s.liveChat.service, logger });
    await api.register(livePublishRoutes, {
      live: s.live.service,
      publishing: s.live.browsers,
      origins: { publicUrl: config.publicUrl, allowedOrigins: config.allowedOrigins },
    });
  };
}

/** Routes outside the versioned API: RSS and Atom feeds, addresses given to feed readers, and federation's. */
export function siteRoutes(ctx: AppContext, s: Services) {
  return async (app: FastifyInstance) => {
    await app.register(feedsRoutes, { feeds: s.feeds, publicUrl: ctx.config.publicUrl });
    // WebFinger, NodeInfo and the ActivityPub documents; none of it is served when FEDERATION is off.
    if (s.federation) await app.register(s.federation.routes);
  };
}
