import { envelope as envelopeSchema, MarkReadBody, MarkReadResult, NotificationPage, PageQuery, UnreadCount } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Logger } from 'pino';
import { cachedForItsViewerOwn } from '../../http/answer-cache.js';
import { currentUser, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import { openNotificationStream } from './notification-stream.js';
import type { NotificationsService } from './notifications.service.js';

const tags = ['notifications'];

export const notificationsRoutes: FastifyPluginAsyncZod<{ notifications: NotificationsService; logger: Logger }> = async (app, { notifications, logger }) => {
  // Both are kept for their viewer until a notification of theirs is stored or marked read (the
  // service tells those as personal changes) or something they show changes publicly.
  app.get(
    '/notifications',
    {
      preHandler: requireUser,
      config: cachedForItsViewerOwn,
      schema: {
        tags,
        summary: "The caller's notifications, newest first",
        querystring: PageQuery.pick({ pageNumber: true, pageSize: true }),
        response: { 200: envelopeSchema(NotificationPage) },
      },
    },
    async (request) => envelope(await notifications.list(currentUser(request).id, request.query), 'Notifications fetched'),
  );

  app.get(
    '/notifications/unread-count',
    {
      preHandler: requireUser,
      config: cachedForItsViewerOwn,
      schema: { tags, summary: "How many of the caller's notifications are unread", response: { 200: envelopeSchema(UnreadCount) } },
    },
    async (request) => envelope(await notifications.unreadCount(currentUser(request).id), 'Unread count fetched'),
  );

  app.patch(
    '/notifications/read',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Mark the given notifications read, or all of them when ids is left out',
        body: MarkReadBody,
        response: { 200: envelopeSchema(MarkReadResult) },
      },
    },
    async (request) => envelope(await notifications.markRead(currentUser(request).id, request.body.ids), 'Notifications marked read'),
  );

  const streams = new Set<() => void>();
  // Open streams would hold the server open: a closing process ends them (clients reconnect elsewhere).
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });

  app.get(
    '/notifications/stream',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Server-sent events: `ready` (the unread count) on connecting, then a `notification` event for each new one; a comment line every 25 s keeps proxies from closing it',
        produces: ['text/event-stream'],
        response: { 200: z.string().describe('text/event-stream') },
      },
    },
    async (request, reply) => {
      await openNotificationStream(request, reply, { notifications, userId: currentUser(request).id, streams, logger });
    },
  );
};
