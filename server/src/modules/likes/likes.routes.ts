import { ContentType, envelope as envelopeSchema, Id, LikeToggleResult, PageQuery, VideoPage } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import { sameForViewers } from '../../http/shared-answers.js';
import type { LikesService } from './likes.service.js';

const tags = ['likes'];
const ContentQuery = z.object({ contentType: ContentType });
const ContentParams = z.object({ contentId: Id });

export const likesRoutes: FastifyPluginAsyncZod<{ likes: LikesService }> = async (app, { likes }) => {
  app.get(
    '/likes/videos',
    {
      preHandler: requireUser,
      schema: { tags, summary: 'Videos the caller liked, newest like first', querystring: PageQuery, response: { 200: envelopeSchema(VideoPage) } },
    },
    async (request) => envelope(await likes.likedVideos(currentUser(request), request.query), 'Liked videos fetched'),
  );

  app.get(
    '/likes/count/:contentId',
    {
      config: sameForViewers,
      schema: { tags, params: ContentParams, querystring: ContentQuery, response: { 200: envelopeSchema(z.number().int()) } },
    },
    async (request) => envelope(await likes.count(request.query.contentType, request.params.contentId, request.user), 'Like count fetched'),
  );

  app.get(
    '/likes/:contentId',
    {
      schema: {
        tags,
        summary: 'Whether the caller likes it (false when signed out)',
        params: ContentParams,
        querystring: ContentQuery,
        response: { 200: envelopeSchema(z.boolean()) },
      },
    },
    async (request) => envelope(await likes.isLiked(request.query.contentType, request.params.contentId, request.user), 'Like status fetched'),
  );

  // SPEC.md writes the path with a trailing slash; clients send either.
  for (const url of ['/likes/toggle/:contentType/:contentId', '/likes/toggle/:contentType/:contentId/']) {
    app.post(
      url,
      {
        preHandler: requireUser,
        schema: {
          tags,
          summary: 'Like or unlike a video or comment',
          params: z.object({ contentType: ContentType, contentId: Id }),
          response: { 200: envelopeSchema(LikeToggleResult) },
        },
      },
      async (request) => {
        const result = await likes.toggle(request.params.contentType, request.params.contentId, currentUser(request));
        return envelope(result, result.liked ? 'Liked' : 'Like removed');
      },
    );
  }
};
