import { type LikeTarget, type LikeToggleResult, type PageQuery, pageInfo, type VideoPage } from '@reelhouse/contract';
import { notFound } from '../../http/errors.js';
import type { DefaultImages } from '../../lib/default-images.js';
import type { Storage } from '../../storage/storage.js';
import type { LikesRepository, LikeTargetRow } from './likes.repository.js';
import { canWatch, type Viewer } from '../../db/video-access.js';
import { VideoPresenter } from '../videos/videos.presenter.js';
import type { PublicChanges } from '../../lib/public-changes.js';

const TARGET_NAME: Record<LikeTarget, string> = { video: 'Video', comment: 'Comment' };

/** Told of the site's own members' likes of remote videos, which their servers must hear of. */
export interface LikeFederation {
  toggled(like: { userId: string; type: LikeTarget; targetId: string; liked: boolean }): Promise<void>;
}

/** Likes on videos and comments. A target the caller may not see is missing to them. */
export class LikesService {
  private readonly presenter: VideoPresenter;

  constructor(
    private readonly deps: {
      likes: LikesRepository;
      storage: Storage;
      defaultImages?: DefaultImages;
      changes: PublicChanges;
      now?: () => number;
      /** Told after a like or unlike (federation on). */
      federated?: LikeFederation;
      logger?: { warn(obj: object, msg?: string): void };
    },
  ) {
    this.presenter = new VideoPresenter(deps.storage, deps.defaultImages);
  }

  private async visibleTarget(type: LikeTarget, id: string, viewer: Viewer | null): Promise<LikeTargetRow> {
    const target = await this.deps.likes.findTarget(type, id);
    if (!target || !canWatch(target, viewer)) throw notFound(TARGET_NAME[type]);
    return target;
  }

  async count(type: LikeTarget, id: string, viewer: Viewer | null): Promise<number> {
    return Number((await this.visibleTarget(type, id, viewer)).likes_count);
  }

  async isLiked(type: LikeTarget, id: string, viewer: Viewer | null): Promise<boolean> {
    await this.visibleTarget(type, id, viewer);
    return viewer ? this.deps.likes.isLiked(viewer.id, type, id) : false;
  }

  async toggle(type: LikeTarget, id: string, user: Viewer): Promise<LikeToggleResult> {
    await this.visibleTarget(type, id, user);
    const result = await this.deps.likes.toggle(user.id, type, id, (this.deps.now ?? Date.now)());
    if (!result) throw notFound(TARGET_NAME[type]);
    // Like counts are on the video page, comment pages and trending.
    await this.deps.changes.changed();
    if (this.deps.federated) {
      await this.deps.federated
        .toggled({ userId: user.id, type, targetId: id, liked: result.liked })
        .catch((err: unknown) => this.deps.logger?.warn({ err }, 'a like could not be sent to the server of its video'));
    }
    return result;
  }

  /** Makes a like so or not so (what another server says its member did); answers whether anything changed. */
  async setLiked(type: LikeTarget, id: string, user: Viewer, liked: boolean): Promise<boolean> {
    await this.visibleTarget(type, id, user);
    if ((await this.deps.likes.isLiked(user.id, type, id)) === liked) return false;
    const result = await this.deps.likes.toggle(user.id, type, id, (this.deps.now ?? Date.now)());
    if (!result) return false;
    await this.deps.changes.changed();
    return true;
  }

  async likedVideos(user: Viewer, query: PageQuery): Promise<VideoPage> {
    const { rows, total } = await this.deps.likes.likedVideos(user, {
      offset: (query.pageNumber - 1) * query.pageSize,
      limit: query.pageSize,
      sortBy: query.sortBy,
      sortType: query.sortType,
    });
    return { videos: rows.map((r) => this.presenter.summary(r)), ...pageInfo(total, query.pageNumber, query.pageSize) };
  }
}
