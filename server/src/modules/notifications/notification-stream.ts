import type { NotificationEvent } from '@reelhouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { NotificationsService } from './notifications.service.js';

/** A comment line this often keeps proxies and load balancers from closing an idle stream. */
export const HEARTBEAT_MS = 25_000;

/**
 * Turns the request into a server-sent event stream of the user's notifications. The headers that
 * the hooks set (CORS, security) are kept; the stream ends when the client goes or the server closes.
 */
export async function openNotificationStream(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: { notifications: NotificationsService; userId: string; streams: Set<() => void>; logger: Logger; heartbeatMs?: number },
): Promise<void> {
  const { notifications, userId, streams } = deps;
  const buffered: NotificationEvent[] = [];
  let send: ((event: string, data: unknown) => void) | null = null;
  // Subscribed before the unread count is read and `ready` is sent: a notice created after the
  // client saw `ready` is never missed (one that arrives meanwhile is held and sent after it).
  const unsubscribe = await notifications.subscribe(userId, (event: NotificationEvent) => {
    if (send) send('notification', event);
    else buffered.push(event);
  });
  let unreadCount: number;
  try {
    unreadCount = (await notifications.unreadCount(userId)).count;
  } catch (err) {
    unsubscribe();
    throw err;
  }
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // nginx and similar proxies would otherwise buffer the stream.
    'x-accel-buffering': 'no',
  });
  const write = (event: string, data: unknown) => raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  // Tells the browser how long to wait before reconnecting after a drop.
  raw.write('retry: 3000\n\n');
  write('ready', { unreadCount });
  for (const event of buffered.splice(0)) write('notification', event);
  send = write;
  const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), deps.heartbeatMs ?? HEARTBEAT_MS);
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    unsubscribe();
    streams.delete(end);
    if (!raw.writableEnded) raw.end();
  };
  streams.add(end);
  request.raw.on('close', end);
  raw.on('error', (err) => {
    deps.logger.debug({ err }, 'notification stream error');
    end();
  });
}
