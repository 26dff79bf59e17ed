import { type LikeTarget, type LikeToggleResult, type PageQuery, pageInfo, type VideoPage } from '@reelhouse/contract';
import { notFound } from '../../http/errors.js';
import type { Storage } from '../../storage/storage.js';
import type { LikesRepository, LikeTargetRow } from './likes.repository.js';
import { isVisibleTo } from '../videos/videos.repository.js';
import { VideoPresenter } from '../videos/videos.presenter.js';

const TARGET_NAME: Record<LikeTarget, string> = { video: 'Video', comment: 'Comment' };

/** Likes on videos and comments. A target the caller may not see is missing to them. */
export class LikesService {
  private readonly presenter: VideoPresenter;

  constructor(private readonly deps: { likes: LikesRepository; storage: Storage; now?: () => number }) {
    this.presenter = new VideoPresenter(deps.storage);
  }

  private async visibleTarget(type: LikeTarget, id: string, viewerId: string | null): Promise<LikeTargetRow> {
    const target = await this.deps.likes.findTarget(type, id);
    if (!target || !isVisibleTo(target, viewerId)) throw notFound(TARGET_NAME[type]);
    return target;
  }

  async count(type: LikeTarget, id: string, viewerId: string | null): Promise<number> {
    return Number((await this.visibleTarget(type, id, viewerId)).likes_count);
  }

  async isLiked(type: LikeTarget, id: string, viewerId: string | null): Promise<boolean> {
    await this.visibleTarget(type, id, viewerId);
    return viewerId ? this.deps.likes.isLiked(viewerId, type, id) : false;
  }

  async toggle(type: LikeTarget, id: string, userId: string): Promise<LikeToggleResult> {
    await this.visibleTarget(type, id, userId);
    const result = await this.deps.likes.toggle(userId, type, id, (this.deps.now ?? Date.now)());
    if (!result) throw notFound(TARGET_NAME[type]);
    return result;
  }

  async likedVideos(userId: string, query: PageQuery): Promise<VideoPage> {
    const { rows, total } = await this.deps.likes.likedVideos(userId, {
      offset: (query.pageNumber - 1) * query.pageSize,
      limit: query.pageSize,
      sortBy: query.sortBy,
      sortType: query.sortType,
    });
    return { videos: rows.map((r) => this.presenter.summary(r)), ...pageInfo(total, query.pageNumber, query.pageSize) };
  }
}
