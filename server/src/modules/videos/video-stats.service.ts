import type { VideoStats } from '@reelhouse/contract';
import { forbidden, notFound } from '../../http/errors.js';
import { canWatch, isAdmin, type Viewer } from '../../db/video-access.js';
import type { VideoStatsRepository } from './video-stats.repository.js';
import { utcDay } from './videos.repository.js';

const DAY_MS = 86_400_000;

/**
 * A video's numbers for its owner (and admins): views per UTC day over the last `days` days,
 * today included, every day present even without views, and the running totals. Others get the
 * same answer as for any video they may not change: 404 if they cannot see it, else 403.
 */
export class VideoStatsService {
  private readonly now: () => number;

  constructor(private readonly deps: { stats: VideoStatsRepository; now?: () => number }) {
    this.now = deps.now ?? Date.now;
  }

  async stats(videoId: string, viewer: Viewer, days: number): Promise<VideoStats> {
    const video = await this.deps.stats.findTotals(videoId);
    if (!video || !canWatch(video, viewer)) throw notFound('Video');
    if (video.owner_id !== viewer.id && !isAdmin(viewer)) throw forbidden('Only the owner of this video can see its numbers');

    const today = utcDay(this.now());
    const first = today - days + 1;
    const rows = await this.deps.stats.dailyViews(videoId, first, today);
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
