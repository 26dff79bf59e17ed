import { type PageQuery, pageInfo, type WatchHistoryPage } from '@reelhouse/contract';
import { toIso } from '../../lib/ids.js';
import type { Viewer } from '../videos/video-access.js';
import type { VideosService } from '../videos/videos.service.js';
import type { WatchHistoryRepository } from './watch-history.repository.js';

/** Each user keeps this many most recently watched videos. */
export const MAX_HISTORY_ENTRIES = 200;

/** Watch history: each video once, at the time it was last watched, newest first. */
export class WatchHistoryService {
  constructor(private readonly deps: { history: WatchHistoryRepository; videos: VideosService }) {}

  /** Records (or moves to the top) a video the user may see; 404 for any other. */
  async record(user: Viewer, videoId: string): Promise<{ videoId: string; watchedAt: string }> {
    await this.deps.videos.visibleRow(videoId, user);
    const watchedAt = await this.deps.history.record(user.id, videoId, Date.now(), MAX_HISTORY_ENTRIES);
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
      watchHistory: rows.map((r) => ({ ...this.deps.videos.present.summary(r), watchedAt: toIso(Number(r.watched_at)) })),
      ...pageInfo(total, q.pageNumber, q.pageSize),
    };
  }
}
