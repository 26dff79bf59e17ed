import type { StudioVideoQuery } from '@reelhouse/contract';
import type { Db } from '../../db/client.js';
import { SUMMARY_COLUMNS } from '../videos/videos.repository.js';

/** The query's sortBy mapped to a fixed column: nothing from the request is used as a name. */
const SORT_COLUMNS = {
  createdAt: 'videos.created_at',
  views: 'videos.views',
  duration: 'videos.duration',
  title: 'videos.title',
} as const;

/** One owner's videos in every state, with the numbers lists do not show. */
export class StudioRepository {
  constructor(private readonly db: Db) {}

  async ownVideos(ownerId: string, q: StudioVideoQuery) {
    let base = this.db.selectFrom('videos').where('videos.owner_id', '=', ownerId);
    if (q.status) base = base.where('videos.status', '=', q.status);
    if (q.visibility) base = base.where('videos.visibility', '=', q.visibility);
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base
      .innerJoin('users', 'users.id', 'videos.owner_id')
      .leftJoin('lives', 'lives.video_id', 'videos.id')
      .select(SUMMARY_COLUMNS)
      .select(['videos.likes_count', 'videos.comments_count', 'videos.failure_reason'])
      .select([
        'lives.status as live_status',
        'lives.scheduled_start as live_scheduled_start',
        'lives.started_at as live_started_at',
        'lives.ended_at as live_ended_at',
        'lives.viewers as live_viewers',
      ])
      .orderBy(SORT_COLUMNS[q.sortBy], q.sortType)
      .orderBy('videos.id', q.sortType)
      .limit(q.pageSize)
      .offset((q.pageNumber - 1) * q.pageSize)
      .execute();
    return { total: Number(n), rows };
  }
}
