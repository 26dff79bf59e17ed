import type { VideoStats } from '@reelhouse/contract';
import type { Db } from '../../db/client.js';
import { forbidden, notFound } from '../../http/errors.js';
import { canWatch, isAdmin, type Viewer } from '../../db/video-access.js';
import { utcDay } from './videos.repository.js';

const DAY_MS = 86_400_000;

/**
 * A video's numbers for its owner (and admins): views per UTC day over the last `days` days,
 * today included, every day present even without views, and the running totals. Others get the
 * same answer as for any video they may not change: 404 if they cannot see it, else 403.
 */
export class VideoStatsService {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  async stats(videoId: string, viewer: Viewer, days: number): Promise<VideoStats> {
    const video = await this.db.selectFrom('videos')
      .select(['owner_id', 'status', 'visibility', 'hidden_at', 'watchable', 'views', 'likes_count', 'comments_count'])
      .where('id', '=', videoId).executeTakeFirst();
    if (!video || !canWatch(video, viewer)) throw notFound('Video');
    if (video.owner_id !== viewer.id && !isAdmin(viewer)) throw forbidden("Only the owner of this video can see its numbers");

    const today = utcDay(this.now());
    const first = today - days + 1;
    const rows = await this.db.selectFrom('video_daily_views').select(['day', 'views'])
      .where('video_id', '=', videoId).where('day', '>=', first).where('day', '<=', today)
      .execute();
    const byDay = new Map(rows.map((r) => [Number(r.day), Number(r.views)]));
    const series = Array.from({ length: days }, (_, i) => ({
      date: new Date((first + i) * DAY_MS).toISOString().slice(0, 10),
      views: byDay.get(first + i) ?? 0,
    }));
    return {
      days: series,
      totals: {
        periodViews: series.reduce((sum, d) => sum + d.views, 0),
        views: Number(video.views),
        likes: Number(video.likes_count),
        comments: Number(video.comments_count),
      },
    };
  }
}
