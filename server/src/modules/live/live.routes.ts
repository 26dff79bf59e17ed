import {
  CreatedLive,
  CreateLiveBody,
  envelope as envelopeSchema,
  LiveDetail,
  LiveKey,
  LiveListQuery,
  LivePage,
  UpdateLiveBody,
  VideoDetail,
  VideoIdParams,
} from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import type { LiveService } from './live.service.js';

const tags = ['live'];

export const liveRoutes: FastifyPluginAsyncZod<{ live: LiveService }> = async (app, { live }) => {
  app.post(
    '/live',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Make a live video (title, description; optional visibility (default public), permanent, saveReplay (default true), scheduledStart); answers its stream key and where to publish',
        body: CreateLiveBody,
        response: { 201: envelopeSchema(CreatedLive) },
      },
    },
    async (request, reply) => {
      const created = await live.create(currentUser(request), request.body, request.hostname);
      return reply.status(201).send(envelope(created, 'Live created', 201));
    },
  );

  app.get(
    '/videos/live',
    { schema: { tags, summary: 'Videos on air now, most viewers first', querystring: LiveListQuery, response: { 200: envelopeSchema(LivePage) } } },
    async (request) => envelope(await live.listOnAir(request.query.pageNumber, request.query.pageSize), 'Lives fetched'),
  );

  app.get(
    '/live/:videoId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "A live's stream key, where to publish and the stream's health; owner and admins only",
        params: VideoIdParams,
        response: { 200: envelopeSchema(LiveDetail) },
      },
    },
    async (request) => envelope(await live.detail(request.params.videoId, currentUser(request), request.hostname), 'Live fetched'),
  );

  app.patch(
    '/live/:videoId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Change a live's title, description or visibility; owner only",
        params: VideoIdParams,
        body: UpdateLiveBody,
        response: { 200: envelopeSchema(VideoDetail) },
      },
    },
    async (request) => envelope(await live.update(request.params.videoId, currentUser(request), request.body), 'Live updated'),
  );

  app.post(
    '/live/:videoId/key',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'A new stream key: the old one stops at once and an encoder publishing with it is cut off; owner and admins only',
        params: VideoIdParams,
        response: { 200: envelopeSchema(LiveKey) },
      },
    },
    async (request) => envelope(await live.newKey(request.params.videoId, currentUser(request)), 'Stream key renewed'),
  );

  app.post(
    '/live/:videoId/end',
    {
      preHandler: requireUser,
      schema: { tags, summary: 'End a live now; owner and admins only', params: VideoIdParams, response: { 200: envelopeSchema(VideoDetail) } },
    },
    async (request) => envelope(await live.end(request.params.videoId, currentUser(request)), 'Live ended'),
  );
};
