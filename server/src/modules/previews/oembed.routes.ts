import { OembedAnswer, OembedQuery } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope } from '../../http/envelope.js';
import type { PreviewsService } from './previews.service.js';
import { siteOrigin } from './site-urls.js';

export const oembedRoutes: FastifyPluginAsyncZod<{ previews: PreviewsService; publicUrl: string | null }> = async (app, { previews, publicUrl }) => {
  app.get(
    '/oembed',
    {
      schema: {
        tags: ['videos'],
        summary:
          'oEmbed 1.0 (type video) for the page URL of a video anyone with the link may watch: an iframe of its embed page. ' +
          'The oEmbed fields are at the top level, beside the envelope. 404 for any other URL, 501 for format=xml.',
        querystring: OembedQuery,
        response: { 200: OembedAnswer },
      },
    },
    async (request, reply) => {
      const answer = await previews.oembed(request.query, siteOrigin(publicUrl, request));
      reply.header('cache-control', 'public, max-age=300');
      return { ...envelope(answer, 'oEmbed fetched'), ...answer };
    },
  );
};
