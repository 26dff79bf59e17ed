import { type FollowedChannelPage, pageInfo, type VideoPage } from '@reelhouse/contract';
import { type DefaultImages, defaultImages } from '../../lib/default-images.js';
import { toIso } from '../../lib/ids.js';
import type { Storage } from '../../storage/storage.js';
import type { Viewer } from '../../db/video-access.js';
import { VideoPresenter } from '../videos/videos.presenter.js';
import type { SubscriptionsFeedRepository } from './subscriptions-feed.repository.js';

interface Page {
  pageNumber: number;
  pageSize: number;
}

/**
 * The subscriptions feed: only listed videos (video-access.ts), so a followed channel's private,
 * unlisted, unfinished, taken-down or banned videos never show, just as on its channel page.
 */
export class SubscriptionsFeedService {
  private readonly present: VideoPresenter;
  private readonly defaults: DefaultImages;

  constructor(private readonly deps: { feed: SubscriptionsFeedRepository; storage: Storage; defaultImages?: DefaultImages }) {
    this.defaults = deps.defaultImages ?? defaultImages();
    this.present = new VideoPresenter(deps.storage, this.defaults);
  }

  async videos(viewer: Viewer, page: Page): Promise<VideoPage> {
    const { rows, total } = await this.deps.feed.videos(viewer.id, (page.pageNumber - 1) * page.pageSize, page.pageSize);
    return { videos: rows.map((r) => this.present.summary(r)), ...pageInfo(total, page.pageNumber, page.pageSize) };
  }

  async channels(viewer: Viewer, page: Page): Promise<FollowedChannelPage> {
    const { rows, total } = await this.deps.feed.channels(viewer.id, (page.pageNumber - 1) * page.pageSize, page.pageSize);
    return {
      channels: rows.map((r) => ({
        _id: r.id,
        username: r.username,
        fullName: r.full_name,
        avatar: { url: r.avatar_key ? this.deps.storage.url(r.avatar_key) : this.defaults.avatar },
        subscribedAt: toIso(Number(r.subscribed_at)),
      })),
      ...pageInfo(total, page.pageNumber, page.pageSize),
    };
  }
}
