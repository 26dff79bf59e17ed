import type { AppContext } from '../../app-context.js';
import { UsersRepository } from '../users/users.repository.js';
import { VideoPresenter } from '../videos/videos.presenter.js';
import { VideosRepository } from '../videos/videos.repository.js';
import { FeedsService } from './feeds.service.js';
import { PreviewsService } from './previews.service.js';

/** The services behind feeds, link previews and oEmbed, built on the shared video and user repositories. */
export function createPreviews(ctx: AppContext) {
  const videos = new VideosRepository(ctx.db, ctx.dialect);
  const users = new UsersRepository(ctx.db);
  const presenter = new VideoPresenter(ctx.storage, ctx.defaultImages);
  const site = async () => {
    const s = await ctx.instance.settings();
    return { name: s.name, description: s.description };
  };
  const avatarUrl = (key: string | null) => (key ? ctx.storage.url(key) : ctx.defaultImages.avatar);
  return {
    feeds: new FeedsService({ videos, users, presenter, site, avatarUrl }),
    previews: new PreviewsService({ videos, users, presenter, site, avatarUrl }),
  };
}
