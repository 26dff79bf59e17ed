import { envelope as envelopeSchema, IdParams, RelatedQuery, RelatedVideos, TrendingQuery, VideoPage, type VideoSummary } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope } from '../../http/envelope.js';
import { sharedWithViewers } from '../../http/shared-answers.js';
import type { DiscoveryService } from './discovery.service.js';

const tags = ['videos'];

export const discoveryRoutes: FastifyPluginAsyncZod<{ discovery: DiscoveryService }> = async (app, { discovery }) => {
  const forViewer = sharedWithViewers((page: { videos: VideoSummary[] }, viewer) => discovery.pageForViewer(page, viewer));
  app.get(
    '/videos/trending',
    {
      config: forViewer,
      schema: {
        tags,
        summary: 'Trending: listed videos by views and likes of the last 7 days, each day counting half as much as two days later',
        querystring: TrendingQuery,
        response: { 200: envelopeSchema(VideoPage) },
      },
    },
    async (request) => envelope(await discovery.trending(request.query, request.user), 'Trending videos fetched'),
  );

  app.get(
    '/videos/:id/related',
    {
      config: forViewer,
      schema: {
        tags,
        summary: 'Up next: what viewers of this video watched next, blended with similar videos and the same channel; listed videos only',
        params: IdParams,
        querystring: RelatedQuery,
        response: { 200: envelopeSchema(RelatedVideos) },
      },
    },
    async (request) => envelope(await discovery.related(request.params.id, request.user, request.query.limit), 'Related videos fetched'),
  );
};
