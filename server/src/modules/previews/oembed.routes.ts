import { OembedAnswer, OembedQuery } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context.js';
import { envelope } from '../../http/envelope.js';
import { createPreviews } from './previews.context.js';
import { siteOrigin } from './site-urls.js';

export const oembedRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { previews } = createPreviews(ctx);

  app.get('/oembed', {
    schema: {
      tags: ['videos'],
      summary: 'oEmbed 1.0 (type video) for the page URL of a video anyone with the link may watch: an iframe of its embed page. '
        + 'The oEmbed fields are at the top level, beside the envelope. 404 for any other URL, 501 for format=xml.',
      querystring: OembedQuery,
      response: { 200: OembedAnswer },
    },
  }, async (request, reply) => {
    const answer = await previews.oembed(request.query, siteOrigin(ctx.config.publicUrl, request));
    reply.header('cache-control', 'public, max-age=300');
    return { ...envelope(answer, 'oEmbed fetched'), ...answer };
  });
};
