import type { StudioVideo, StudioVideoQuery } from '@reelhouse/contract';
import { liveState, type VideoPresenter } from '../videos/videos.presenter.js';
import type { StudioRepository } from './studio.repository.js';

/**
 * The creator studio's list: only ever the caller's own videos, in every state (processing,
 * failed, private, scheduled, taken down), with the numbers lists do not show. Everything here is
 * the owner's own, so no access rule beyond "owner_id is the caller" applies.
 */
export class StudioService {
  constructor(private readonly deps: { studio: StudioRepository; present: VideoPresenter }) {}

  async ownVideos(ownerId: string, q: StudioVideoQuery): Promise<{ total: number; videos: StudioVideo[] }> {
    const { total, rows } = await this.deps.studio.ownVideos(ownerId, q);
    const { present } = this.deps;
    const videos = rows.map((r) => ({
      ...present.summary(r),
      likesCount: Number(r.likes_count),
      commentsCount: Number(r.comments_count),
      failureReason: r.failure_reason,
      takenDown: r.hidden_at !== null,
      ...(r.live_status ? { live: liveState(r) } : {}),
    }));
    return { total, videos };
  }
}
