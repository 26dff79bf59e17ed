import { envelope as envelopeSchema, pageInfo, StudioVideoPage, StudioVideoQuery } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import type { StudioService } from './studio.service.js';

const tags = ['studio'];

export const studioRoutes: FastifyPluginAsyncZod<{ studio: StudioService }> = async (app, { studio }) => {
  app.get(
    '/studio/videos',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "The caller's own videos in every state, with processing, failure, visibility and numbers; filter by status and visibility",
        querystring: StudioVideoQuery,
        response: { 200: envelopeSchema(StudioVideoPage) },
      },
    },
    async (request) => {
      const q = request.query;
      const { total, videos } = await studio.ownVideos(currentUser(request).id, q);
      return envelope({ videos, ...pageInfo(total, q.pageNumber, q.pageSize) }, 'Studio videos fetched');
    },
  );
};
