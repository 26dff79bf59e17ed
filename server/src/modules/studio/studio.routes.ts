import { envelope as envelopeSchema, pageInfo, StudioVideoPage, StudioVideoQuery } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import { currentUser, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import type { VideoPresenter } from '../videos/videos.presenter.js';
import { SUMMARY_COLUMNS, type VideosRepository } from '../videos/videos.repository.js';

const tags = ['studio'];

/** The query's sortBy mapped to a fixed column: nothing from the request is used as a name. */
const SORT_COLUMNS = {
  createdAt: 'videos.created_at',
  views: 'videos.views',
  duration: 'videos.duration',
  title: 'videos.title',
} as const;

/**
 * The creator studio's list: only ever the caller's own videos, in every state (processing,
 * failed, private, scheduled, taken down), with the numbers lists do not show. Everything here is
 * the owner's own, so no access rule beyond "owner_id is the caller" applies.
 */
export const studioRoutes: FastifyPluginAsyncZod<{ videos: VideosRepository; presenter: VideoPresenter; db: Db }> = async (app, { presenter: present, db }) => {

  app.get('/studio/videos', {
    preHandler: requireUser,
    schema: {
      tags, summary: "The caller's own videos in every state, with processing, failure, visibility and numbers; filter by status and visibility",
      querystring: StudioVideoQuery, response: { 200: envelopeSchema(StudioVideoPage) },
    },
  }, async (request) => {
    const user = currentUser(request);
    const q = request.query;
    let base = db.selectFrom('videos').where('videos.owner_id', '=', user.id);
    if (q.status) base = base.where('videos.status', '=', q.status);
    if (q.visibility) base = base.where('videos.visibility', '=', q.visibility);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const total = Number(n);
    const rows = await base.innerJoin('users', 'users.id', 'videos.owner_id')
      .select(SUMMARY_COLUMNS)
      .select(['videos.likes_count', 'videos.comments_count', 'videos.failure_reason'])
      .orderBy(SORT_COLUMNS[q.sortBy], q.sortType).orderBy('videos.id', q.sortType)
      .limit(q.pageSize).offset((q.pageNumber - 1) * q.pageSize)
      .execute();
    const videos = rows.map((r) => ({
      ...present.summary(r),
      likesCount: Number(r.likes_count),
      commentsCount: Number(r.comments_count),
      failureReason: r.failure_reason,
      takenDown: r.hidden_at !== null,
    }));
    return envelope({ videos, ...pageInfo(total, q.pageNumber, q.pageSize) }, 'Studio videos fetched');
  });
};
