import { envelope as envelopeSchema, PageQuery, User, VideoIdParams, WatchHistoryPage, WatchPositionBody } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import type { UsersService } from '../users/users.service.js';
import type { WatchHistoryService } from './watch-history.service.js';

const tags = ['users'];

export const watchHistoryRoutes: FastifyPluginAsyncZod<{ history: WatchHistoryService; users: Pick<UsersService, 'current'> }> = async (
  app,
  { history, users },
) => {
  app.patch(
    '/users/watch-history/:videoId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Record a watched video (moves it to the top of the history), with an optional { position } in seconds to resume from; answers the signed-in user, as GET /users/user/current does',
        params: VideoIdParams,
        // Existing clients send no body at all.
        body: WatchPositionBody.nullish(),
        // Clients of the contract store whatever this answers as the signed-in user.
        response: { 200: envelopeSchema(User) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await history.record(user, request.params.videoId, request.body?.position);
      return envelope(await users.current(user.id), 'Watch history updated');
    },
  );

  app.get(
    '/users/watch-history/',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Watch history, newest first; sortBy createdAt means the time watched',
        querystring: PageQuery,
        response: { 200: envelopeSchema(WatchHistoryPage) },
      },
    },
    async (request) => envelope(await history.list(currentUser(request), request.query), 'Watch history fetched'),
  );
};
