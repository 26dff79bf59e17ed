import { type PageQuery, pageInfo, type WatchHistoryPage } from '@reelhouse/contract';
import { toIso } from '../../lib/ids.js';
import type { Viewer } from '../../db/video-access.js';
import type { VideosService } from '../videos/videos.service.js';
import type { WatchHistoryRepository } from './watch-history.repository.js';

/** Each user keeps this many most recently watched videos. */
export const MAX_HISTORY_ENTRIES = 200;

/** Watch history: each video once, at the time it was last watched, newest first. */
export class WatchHistoryService {
  constructor(private readonly deps: { history: WatchHistoryRepository; videos: VideosService }) {}

  /**
   * Records (or moves to the top) a video the user may see, with where playback is when given (at
   * most the video's length); 404 for any other.
   */
  async record(user: Viewer, videoId: string, position?: number): Promise<{ videoId: string; watchedAt: string }> {
    const video = await this.deps.videos.visibleRow(videoId, user);
    const at = position === undefined ? undefined : Math.min(position, Math.max(0, Number(video.duration)));
    const watchedAt = await this.deps.history.record(user.id, videoId, Date.now(), MAX_HISTORY_ENTRIES, at);
    return { videoId, watchedAt: toIso(watchedAt) };
  }

  /** sortBy createdAt orders by when each video was watched (the default, newest first). */
  async list(user: Viewer, q: PageQuery): Promise<WatchHistoryPage> {
    const { rows, total } = await this.deps.history.list(user, {
      sortBy: q.sortBy,
      sortType: q.sortType,
      limit: q.pageSize,
      offset: (q.pageNumber - 1) * q.pageSize,
    });
    return {
      watchHistory: rows.map((r) => ({
        ...this.deps.videos.present.summary(r),
        watchedAt: toIso(Number(r.watched_at)),
        watchPosition: r.watch_position === null ? null : Number(r.watch_position),
      })),
      ...pageInfo(total, q.pageNumber, q.pageSize),
    };
  }
}
