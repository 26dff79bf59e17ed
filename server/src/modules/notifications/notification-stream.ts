import type { NotificationEvent } from '@reelhouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { openEventStream } from '../../http/event-stream.js';
import type { NotificationsService } from './notifications.service.js';

/**
 * Turns the request into a server-sent event stream of the user's notifications: `ready` with the
 * unread count, then a `notification` for each new one. Subscribed before the count is read, so a
 * notice created after the client saw `ready` is never missed.
 */
export async function openNotificationStream(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: { notifications: NotificationsService; userId: string; streams: Set<() => void>; logger: Logger },
): Promise<void> {
  const { notifications, userId } = deps;
  await openEventStream(request, reply, {
    streams: deps.streams,
    logger: deps.logger,
    name: 'notification',
    async start(emit) {
      const unsubscribe = await notifications.subscribe(userId, (event: NotificationEvent) => emit('notification', event));
      try {
        return { ready: { unreadCount: (await notifications.unreadCount(userId)).count }, stop: unsubscribe };
      } catch (err) {
        unsubscribe();
        throw err;
      }
    },
  });
}
