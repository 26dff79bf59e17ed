import {
  ChatBan,
  ChatBanBody,
  ChatHistory,
  ChatMessage,
  ChatMessageBody,
  ChatMessageParams,
  envelope as envelopeSchema,
  VideoIdParams,
} from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import { openChatStream } from './live-chat-stream.js';
import type { LiveChatService } from './live-chat.service.js';

const tags = ['live'];

export const liveChatRoutes: FastifyPluginAsyncZod<{ chat: LiveChatService; logger: Logger }> = async (app, { chat, logger }) => {
  app.get(
    '/live/:videoId/chat',
    {
      schema: {
        tags,
        summary: "A live's chat: the last 100 messages, oldest first, and its rules (slow mode, open); anyone who may see the live",
        params: VideoIdParams,
        response: { 200: envelopeSchema(ChatHistory) },
      },
    },
    async (request) => envelope(await chat.history(request.params.videoId, request.user), 'Chat fetched'),
  );

  const streams = new Set<() => void>();
  // Open streams would hold the server open: a closing process ends them (clients reconnect elsewhere).
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });

  app.get(
    '/live/:videoId/chat/stream',
    {
      schema: {
        tags,
        summary:
          "Server-sent events of a live's chat, for anyone who may see the live: `ready` (viewers, settings) first, then `message`, `deleted`, `viewers` (when the count changed, every few seconds) and `status` (on air, ended); each open stream counts as one viewer",
        params: VideoIdParams,
        produces: ['text/event-stream'],
        response: { 200: z.string().describe('text/event-stream') },
      },
    },
    async (request, reply) => {
      await openChatStream(request, reply, { chat, videoId: request.params.videoId, viewer: request.user, streams, logger });
    },
  );

  app.post(
    '/live/:videoId/chat',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          "Write in a live's chat (1-200 characters) while it is upcoming or on air; slow mode applies to all but the channel owner, moderators and admins",
        params: VideoIdParams,
        body: ChatMessageBody,
        response: { 201: envelopeSchema(ChatMessage) },
      },
    },
    async (request, reply) => {
      const message = await chat.post(request.params.videoId, currentUser(request), request.body);
      return reply.status(201).send(envelope(message, 'Message sent', 201));
    },
  );

  app.delete(
    '/live/:videoId/chat/:messageId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Delete a chat message; its author, the channel owner, moderators and admins',
        params: ChatMessageParams,
        response: { 200: envelopeSchema(z.object({})) },
      },
    },
    async (request) => {
      await chat.delete(request.params.videoId, request.params.messageId, currentUser(request));
      return envelope({}, 'Message deleted');
    },
  );

  app.post(
    '/live/:videoId/chat/bans',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Keep a viewer out of a live's chat for a while (60 s to a week; a new ban replaces the old); the channel owner, moderators and admins",
        params: VideoIdParams,
        body: ChatBanBody,
        response: { 201: envelopeSchema(ChatBan) },
      },
    },
    async (request, reply) => {
      const ban = await chat.ban(request.params.videoId, currentUser(request), request.body);
      return reply.status(201).send(envelope(ban, 'Viewer banned from the chat', 201));
    },
  );
};
