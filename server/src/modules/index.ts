import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../app-context.js';
import { adminRoutes } from './admin/admin.routes.js';
import { captionsRoutes } from './captions/captions.routes.js';
import { commentsRoutes } from './comments/comments.routes.js';
import { discoveryRoutes } from './discovery/discovery.routes.js';
import { instanceRoutes } from './instance/instance.routes.js';
import { likesRoutes } from './likes/likes.routes.js';
import { moderationRoutes } from './moderation/moderation.routes.js';
import { notificationsRoutes } from './notifications/notifications.routes.js';
import { oembedRoutes } from './previews/oembed.routes.js';
import { playlistsRoutes } from './playlists/playlists.routes.js';
import { studioRoutes } from './studio/studio.routes.js';
import { subscriptionsRoutes } from './subscriptions/subscriptions.routes.js';
import { uploadsRoutes } from './uploads/uploads.routes.js';
import { usersRoutes } from './users/users.routes.js';
import { videosRoutes } from './videos/videos.routes.js';
import { watchHistoryRoutes } from './watch-history/watch-history.routes.js';

/** Every API module, mounted under /api/v1. */
export const apiModules: FastifyPluginAsyncZod<{ ctx: AppContext }>[] = [usersRoutes, commentsRoutes, likesRoutes, subscriptionsRoutes, playlistsRoutes, videosRoutes, discoveryRoutes, uploadsRoutes, watchHistoryRoutes, studioRoutes, instanceRoutes, moderationRoutes, adminRoutes, notificationsRoutes, oembedRoutes, captionsRoutes];
