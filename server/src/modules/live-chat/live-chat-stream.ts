import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Viewer } from '../../db/video-access.js';
import { openEventStream } from '../../http/event-stream.js';
import type { ChatEvent } from './live-chat-bus.js';
import type { LiveChatService } from './live-chat.service.js';

/**
 * Turns the request into a server-sent event stream of a live's chat (`ready` with the viewers and
 * the chat's settings, then `message`, `deleted`, `viewers`, `status`); while it is open it counts
 * as one viewer of the live.
 */
export async function openChatStream(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: { chat: LiveChatService; videoId: string; viewer: Viewer | null; streams: Set<() => void>; logger: Logger },
): Promise<void> {
  const { chat, videoId } = deps;
  const settings = await chat.settingsFor(videoId, deps.viewer);
  await openEventStream(request, reply, {
    streams: deps.streams,
    logger: deps.logger,
    name: 'live chat',
    async start(emit) {
      const unsubscribe = await chat.subscribe(videoId, (event: ChatEvent) => {
        if (event.type === 'message') emit('message', event.message);
        else if (event.type === 'deleted') emit('deleted', { _id: event._id });
        else emit('status', { status: event.status });
      });
      try {
        const joined = await chat.join(videoId, deps.viewer, (viewers) => emit('viewers', { viewers }));
        return {
          ready: { viewers: joined.viewers, settings },
          stop() {
            unsubscribe();
            joined.leave();
          },
        };
      } catch (err) {
        unsubscribe();
        throw err;
      }
    },
  });
}
