import { Feed } from 'feed';
import type { FeedFormat, Language } from '@reelhouse/contract';
import { translator } from '../../i18n/translator.js';
import { notFound } from '../../http/errors.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { VideoPresenter } from '../videos/videos.presenter.js';
import type { VideosRepository } from '../videos/videos.repository.js';
import { escapeHtml } from './html-escape.js';
import { absoluteUrl, channelPageUrl, videoPageUrl } from './site-urls.js';

/** Feed readers get the newest this many; older videos stay on the site. */
export const FEED_SIZE = 50;

export interface FeedsDeps {
  videos: Pick<VideosRepository, 'list'>;
  users: Pick<UsersRepository, 'findByUsername'>;
  presenter: VideoPresenter;
  /** The site's name and description, as admins set them. */
  site: () => Promise<{ name: string; description: string }>;
  /** URL of a channel's avatar (the default one when it has none). */
  avatarUrl: (avatarKey: string | null) => string;
}

/**
 * RSS 2.0 and Atom feeds of the newest listed videos, site-wide or of one channel. Listed is the
 * one rule of what everyone may see (public, ready, not taken down, owner not banned), so a feed
 * shows exactly what the home page and the channel page show a signed-out visitor.
 */
export class FeedsService {
  constructor(private readonly deps: FeedsDeps) {}

  /**
   * The feed's own words (its title and description) are in `language`, English by default; what
   * the videos say is as their owners wrote it.
   */
  async feed(channel: string | null, format: FeedFormat, origin: string, language: Language | null = null): Promise<string> {
    const site = await this.deps.site();
    const t = translator(language);
    let owner: { id: string; username: string; full_name: string; avatar_key: string | null } | null = null;
    if (channel !== null) {
      const row = await this.deps.users.findByUsername(channel);
      // A banned account's channel is gone for everyone, its feed too.
      if (!row || row.banned_at !== null) throw notFound('Channel');
      owner = row;
    }
    const { rows } = await this.deps.videos.list({
      ownerId: owner?.id,
      includeHidden: false,
      words: [],
      byRelevance: false,
      sortBy: 'createdAt',
      sortType: 'desc',
      limit: FEED_SIZE,
      offset: 0,
    });
    const self = owner ? `${origin}/feeds/channel/${owner.username}` : `${origin}/feeds/videos`;
    // A reader subscribed from the feed's own links keeps its language.
    const lang = language && language !== 'en' ? `?lang=${language}` : '';
    const link = owner ? channelPageUrl(origin, owner.username) : `${origin}/`;
    const feed = new Feed({
      id: link,
      link,
      title: owner ? t('feeds.channelTitle', { name: owner.full_name, username: owner.username, site: site.name }) : t('feeds.siteTitle', { site: site.name }),
      description: owner ? t('feeds.channelDescription', { name: owner.full_name, site: site.name }) : site.description,
      image: owner ? absoluteUrl(origin, this.deps.avatarUrl(owner.avatar_key)) : undefined,
      favicon: `${origin}/favicon.svg`,
      updated: rows[0] ? new Date(Number(rows[0].created_at)) : new Date(0),
      generator: site.name,
      copyright: owner ? `© ${owner.full_name}` : `© ${site.name}`,
      feedLinks: { rss: `${self}.xml${lang}`, atom: `${self}.atom${lang}` },
      author: owner ? { name: owner.full_name, link } : undefined,
    });
    for (const row of rows) {
      const video = this.deps.presenter.summary(row);
      const url = videoPageUrl(origin, video._id);
      const thumbnail = video.thumbnail.url ? absoluteUrl(origin, video.thumbnail.url) : null;
      feed.addItem({
        id: url,
        link: url,
        title: video.title,
        description: video.description,
        content: this.content(url, video.title, video.description, thumbnail),
        date: new Date(Number(row.created_at)),
        author: [{ name: video.owner.fullName, link: channelPageUrl(origin, video.owner.username) }],
        ...(thumbnail ? { image: { url: thumbnail } } : {}),
      });
    }
    return format === 'atom' ? feed.atom1() : feed.rss2();
  }

  /** The item's body in a reader: the thumbnail linking to the video, then the description. */
  private content(url: string, title: string, description: string, thumbnail: string | null): string {
    const image = thumbnail ? `<p><a href="${escapeHtml(url)}"><img src="${escapeHtml(thumbnail)}" alt="${escapeHtml(title)}"></a></p>` : '';
    const paragraphs = description
      .split(/\n{2,}/)
      .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
      .join('');
    return image + paragraphs;
  }
}
