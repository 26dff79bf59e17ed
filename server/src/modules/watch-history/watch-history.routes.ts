import { envelope as envelopeSchema, IsoDate, PageQuery, VideoIdParams, WatchHistoryPage } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { currentUser, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import { createVideosService } from '../videos/videos.routes.js';
import { WatchHistoryRepository } from './watch-history.repository.js';
import { WatchHistoryService } from './watch-history.service.js';

const tags = ['users'];

export const watchHistoryRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const history = new WatchHistoryService({ history: new WatchHistoryRepository(ctx.db), videos: createVideosService(ctx) });

  app.patch('/users/watch-history/:videoId', {
    preHandler: requireUser,
    schema: {
      tags,
      summary: 'Record a watched video (moves it to the top of the history)',
      params: VideoIdParams,
      response: { 200: envelopeSchema(z.object({ videoId: z.string(), watchedAt: IsoDate })) },
    },
  }, async (request) => envelope(await history.record(currentUser(request), request.params.videoId), 'Watch history updated'));

  app.get('/users/watch-history/', {
    preHandler: requireUser,
    schema: {
      tags,
      summary: 'Watch history, newest first; sortBy createdAt means the time watched',
      querystring: PageQuery,
      response: { 200: envelopeSchema(WatchHistoryPage) },
    },
  }, async (request) => envelope(await history.list(currentUser(request), request.query), 'Watch history fetched'));
};
