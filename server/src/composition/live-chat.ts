import type { AppContext } from '../app-context.js';
import { newId } from '../lib/ids.js';
import { createLiveChatBus } from '../modules/live-chat/live-chat-bus.js';
import { LiveChatRepository } from '../modules/live-chat/live-chat.repository.js';
import { LiveChatService } from '../modules/live-chat/live-chat.service.js';
import { LiveViewers } from '../modules/live-chat/live-viewers.js';
import { InProcessViewerCounts, RedisViewerCounts } from '../modules/live-chat/viewer-counts.js';
import type { LiveEvents } from '../modules/live/live-events.js';
import type { NotificationsService } from '../modules/notifications/notifications.service.js';

export interface LiveChat {
  service: LiveChatService;
  /** Counts the open chat streams as viewers; started by the runtime of an API process. */
  viewers: LiveViewers;
  close(): Promise<void>;
}

/** The chat of lives and their viewer counts, across processes on Redis when REDIS_URL is set. */
export function buildLiveChat(ctx: AppContext): LiveChat {
  const { config, logger } = ctx;
  const chat = new LiveChatRepository(ctx.db);
  const bus = createLiveChatBus(config.redisUrl, logger);
  const counts = config.redisUrl ? new RedisViewerCounts(config.redisUrl, newId(), logger) : new InProcessViewerCounts();
  const viewers = new LiveViewers({ counts, lives: chat, logger });
  const service = new LiveChatService({
    chat,
    bus,
    viewers,
    storage: ctx.storage,
    defaultImages: ctx.defaultImages,
    defaultSlowModeSeconds: config.live.chatSlowModeSeconds,
  });
  return {
    service,
    viewers,
    close: async () => {
      await viewers.stop();
      await bus.close();
    },
  };
}

/**
 * What the lives module's events do: a live's open chats hear of its state, and the channel's
 * subscribers of a new session. Neither may stop the ingest or an end: a failure is logged.
 */
export function liveEvents(ctx: AppContext, chat: LiveChatService, notifications: Pick<NotificationsService, 'liveStarted'>): LiveEvents {
  const { logger } = ctx;
  return {
    status: (videoId, status) =>
      chat.statusChanged(videoId, status).catch((err: unknown) => logger.warn({ err, videoId, status }, 'could not tell a live chat of its state')),
    sessionStarted: (videoId) =>
      notifications.liveStarted(videoId).catch((err: unknown) => logger.warn({ err, videoId }, 'could not notify that a live started')),
  };
}
