import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Viewer } from '../../db/video-access.js';
import type { ChatEvent } from './live-chat-bus.js';
import type { LiveChatService } from './live-chat.service.js';

/** A comment line this often keeps proxies and load balancers from closing an idle stream. */
const HEARTBEAT_MS = 25_000;

/**
 * Turns the request into a server-sent event stream of a live's chat; while it is open it counts
 * as one viewer of the live. The headers the hooks set (CORS, security) are kept; the stream ends
 * when the client goes or the server closes.
 */
export async function openChatStream(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: { chat: LiveChatService; videoId: string; viewer: Viewer | null; streams: Set<() => void>; logger: Logger },
): Promise<void> {
  const { chat, videoId, streams } = deps;
  const settings = await chat.settingsFor(videoId, deps.viewer);
  const buffered: [string, unknown][] = [];
  let send: ((event: string, data: unknown) => void) | null = null;
  const emit = (event: string, data: unknown) => {
    if (send) send(event, data);
    else buffered.push([event, data]);
  };
  // Subscribed before `ready` is sent: nothing said after the client saw `ready` is missed (what
  // arrives meanwhile is held and sent after it).
  const unsubscribe = await chat.subscribe(videoId, (event: ChatEvent) => {
    if (event.type === 'message') emit('message', event.message);
    else if (event.type === 'deleted') emit('deleted', { _id: event._id });
    else emit('status', { status: event.status });
  });
  let joined: Awaited<ReturnType<LiveChatService['join']>>;
  try {
    joined = await chat.join(videoId, (viewers) => emit('viewers', { viewers }));
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
  write('ready', { viewers: joined.viewers, settings });
  for (const [event, data] of buffered.splice(0)) write(event, data);
  send = write;
  const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), HEARTBEAT_MS);
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    unsubscribe();
    joined.leave();
    streams.delete(end);
    if (!raw.writableEnded) raw.end();
  };
  streams.add(end);
  request.raw.on('close', end);
  raw.on('error', (err) => {
    deps.logger.debug({ err }, 'live chat stream error');
    end();
  });
}
