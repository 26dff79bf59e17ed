import { ChannelFeedParams, type FeedFormat, FeedQuery, type Language } from '@reelhouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestLanguage } from '../../http/request-language.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FEED_SIZE, type FeedsService } from './feeds.service.js';
import { siteOrigin } from './site-urls.js';

const tags = ['feeds'];
const CONTENT_TYPES: Record<FeedFormat, string> = {
  xml: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
};

/**
 * Readers poll often; a few minutes of caching spares the database without making new videos late.
 * The feed's words follow Accept-Language, so a shared cache keeps one answer per language.
 */
function sendFeed(reply: FastifyReply, format: FeedFormat, body: string) {
  return reply.header('content-type', CONTENT_TYPES[format]).header('cache-control', 'public, max-age=300').header('vary', 'Accept-Language').send(body);
}

/** `?lang=` (the query's schema refuses a language the site does not speak), else Accept-Language's best, else English. */
function feedLanguage(request: FastifyRequest, asked: Language | undefined): Language | null {
  return asked ?? requestLanguage(request);
}

/**
 * RSS 2.0 (`.xml`) and Atom (`.atom`) feeds, outside /api/v1 like media URLs: feed readers are
 * given these addresses. Bad input still answers the envelope.
 */
export const feedsRoutes: FastifyPluginAsyncZod<{ feeds: FeedsService; publicUrl: string | null }> = async (app, { feeds, publicUrl }) => {
  for (const format of ['xml', 'atom'] as const) {
    app.get(
      `/feeds/videos.${format}`,
      {
        schema: {
          tags,
          summary: `The site's newest ${FEED_SIZE} listed videos (${format === 'xml' ? 'RSS 2.0' : 'Atom'}); its title in ?lang= or Accept-Language`,
          querystring: FeedQuery,
        },
      },
      async (request, reply) =>
        sendFeed(reply, format, await feeds.feed(null, format, siteOrigin(publicUrl, request), feedLanguage(request, request.query.lang))),
    );
  }

  app.get(
    '/feeds/channel/:file',
    {
      schema: {
        tags,
        summary: `A channel's newest ${FEED_SIZE} listed videos: {username}.xml (RSS 2.0) or {username}.atom (Atom); its title in ?lang= or Accept-Language`,
        params: ChannelFeedParams,
        querystring: FeedQuery,
      },
    },
    async (request, reply) => {
      const { username, format } = request.params.file;
      return sendFeed(reply, format, await feeds.feed(username, format, siteOrigin(publicUrl, request), feedLanguage(request, request.query.lang)));
    },
  );
};
