import { Comment, CommentBody, CommentPage, envelope as envelopeSchema, Id, NewCommentBody, PageQuery } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import { sharedWithViewers } from '../../http/shared-answers.js';
import type { CommentsService } from './comments.service.js';

const tags = ['comments'];
const CommentPageQuery = PageQuery.pick({ pageNumber: true, pageSize: true });

export const commentsRoutes: FastifyPluginAsyncZod<{ comments: CommentsService }> = async (app, { comments }) => {
  const forViewer = sharedWithViewers((page: CommentPage, viewer) => comments.pageForViewer(page, viewer));
  app.get(
    '/comments/:videoId',
    {
      config: forViewer,
      schema: {
        tags,
        summary: "A video's comments, newest first",
        params: z.object({ videoId: Id }),
        querystring: CommentPageQuery,
        response: { 200: envelopeSchema(CommentPage) },
      },
    },
    async (request) => envelope(await comments.list(request.params.videoId, request.user, request.query), 'Comments fetched'),
  );

  app.post(
    '/comments/:videoId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Add a comment, or a reply to the comment parentId names',
        params: z.object({ videoId: Id }),
        body: NewCommentBody,
        response: { 201: envelopeSchema(Comment) },
      },
    },
    async (request, reply) => {
      const comment = await comments.add(request.params.videoId, currentUser(request), request.body.content, request.body.parentId);
      return reply.status(201).send(envelope(comment, 'Comment added', 201));
    },
  );

  app.patch(
    '/comments/:commentId',
    {
      preHandler: requireUser,
      schema: { tags, params: z.object({ commentId: Id }), body: CommentBody, response: { 200: envelopeSchema(Comment) } },
    },
    async (request) => envelope(await comments.edit(request.params.commentId, currentUser(request), request.body.content), 'Comment updated'),
  );

  app.delete(
    '/comments/:commentId',
    {
      preHandler: requireUser,
      schema: { tags, params: z.object({ commentId: Id }), response: { 200: envelopeSchema(z.object({})) } },
    },
    async (request) => {
      await comments.remove(request.params.commentId, currentUser(request));
      return envelope({}, 'Comment deleted');
    },
  );

  app.get(
    '/comments/:commentId/replies',
    {
      config: forViewer,
      schema: {
        tags,
        summary: "A comment's replies, oldest first",
        params: z.object({ commentId: Id }),
        querystring: CommentPageQuery,
        response: { 200: envelopeSchema(CommentPage) },
      },
    },
    async (request) => envelope(await comments.replies(request.params.commentId, request.user, request.query), 'Replies fetched'),
  );

  app.patch(
    '/comments/:commentId/pin',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "The video's owner pins a comment (unpinning any other) or unpins it",
        params: z.object({ commentId: Id }),
        response: { 200: envelopeSchema(Comment) },
      },
    },
    async (request) => {
      const comment = await comments.togglePin(request.params.commentId, currentUser(request));
      return envelope(comment, comment.isPinned ? 'Comment pinned' : 'Comment unpinned');
    },
  );

  app.patch(
    '/comments/:commentId/heart',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "The video's owner gives a comment a heart or takes it back",
        params: z.object({ commentId: Id }),
        response: { 200: envelopeSchema(Comment) },
      },
    },
    async (request) => {
      const comment = await comments.toggleHeart(request.params.commentId, currentUser(request));
      return envelope(comment, comment.isHearted ? 'Comment hearted' : 'Heart removed');
    },
  );
};
