import { Id, type Language, type Oembed, type OembedQuery } from '@reelhouse/contract';
import { translator } from '../../i18n/translator.js';
import { AppError, notFound } from '../../http/errors.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { VideoPresenter } from '../videos/videos.presenter.js';
import type { VideoDetailRow, VideosRepository } from '../videos/videos.repository.js';
import { escapeHtml, excerpt } from './html-escape.js';
import type { PageMeta } from './page-head.js';
import { absoluteUrl, channelPageUrl, embedPageUrl, videoPageUrl } from './site-urls.js';

/** Size of the player a preview or an embed code offers when the consumer sets no limit. */
const PLAYER = { width: 640, height: 360 };
/** Thumbnails are made to fit 1280x720. */
const THUMBNAIL = { width: 1280, height: 720 };
/** How long an oEmbed consumer may keep an answer, in seconds. */
const OEMBED_CACHE_AGE = 3600;
const DESCRIPTION_LENGTH = 200;

export interface PreviewsDeps {
  videos: Pick<VideosRepository, 'findDetail'>;
  users: Pick<UsersRepository, 'findByUsername'>;
  presenter: VideoPresenter;
  site: () => Promise<{ name: string; description: string }>;
  avatarUrl: (avatarKey: string | null) => string;
}

/** A video page, channel page or embed page named by a path of the web client. */
type ClientPage = { kind: 'video' | 'embed'; id: string } | { kind: 'channel'; username: string };

/** Recognises the client's pages that get link previews (path as requested, e.g. /video/abc); anything else gets none. */
export function clientPage(path: string): ClientPage | null {
  const video = /^\/(video|embed)\/([^/]+)\/?$/.exec(path);
  if (video) return { kind: video[1] as 'video' | 'embed', id: video[2]! };
  const channel = /^\/channel\/([^/]+)(?:\/(?:videos|playlists))?\/?$/.exec(path);
  if (channel) return { kind: 'channel', username: channel[1]!.toLowerCase() };
  return null;
}

/**
 * Link previews (OpenGraph and Twitter tags of the video and channel pages) and oEmbed answers.
 * Both tell only what anyone with the link may see: a watchable video (public or unlisted; the
 * watchable flag already excludes private, unprocessed, taken-down videos and banned owners) and
 * a channel that is not banned.
 */
export class PreviewsService {
  constructor(private readonly deps: PreviewsDeps) {}

  /**
   * The preview of a client page, or null for a page that gets none (the plain page is served). The
   * words the site adds are in `language` (English by default); titles and descriptions people
   * wrote stay as they wrote them.
   */
  async pageMeta(path: string, origin: string, language: Language | null = null): Promise<PageMeta | null> {
    const page = clientPage(path);
    if (!page) return null;
    if (page.kind === 'channel') return this.channelMeta(page.username, origin, language);
    const meta = await this.videoMeta(page.id, origin, language);
    // The embed page's own address is not the one to share or index.
    return meta && page.kind === 'embed' ? { ...meta, noindex: true } : meta;
  }

  private async watchableVideo(id: string): Promise<VideoDetailRow | null> {
    if (!Id.safeParse(id).success) return null;
    const row = await this.deps.videos.findDetail(id);
    return row && row.watchable === 1 ? row : null;
  }

  async videoMeta(id: string, origin: string, language: Language | null = null): Promise<PageMeta | null> {
    const row = await this.watchableVideo(id);
    if (!row) return null;
    const site = await this.deps.site();
    const t = translator(language);
    const video = this.deps.presenter.summary(row);
    const url = videoPageUrl(origin, row.id);
    const size = fit(row.width, row.height, PLAYER.width, PLAYER.height);
    return {
      title: video.title,
      description: excerpt(video.description, DESCRIPTION_LENGTH) || t('pages.videoDescription', { name: video.owner.fullName, site: site.name }),
      url,
      siteName: site.name,
      type: 'video.other',
      image: video.thumbnail.url ? { url: absoluteUrl(origin, video.thumbnail.url), alt: video.title } : null,
      ...(video.videoFile.url
        ? { video: { url: absoluteUrl(origin, video.videoFile.url), width: row.width ?? size.width, height: row.height ?? size.height } }
        : {}),
      player: { url: embedPageUrl(origin, row.id), ...size },
      oembed: `${origin}/api/v1/oembed?${new URLSearchParams({ url, format: 'json' })}`,
      // Unlisted: shared on purpose, so its link previews like any other, but search engines are asked to leave it out.
      noindex: row.visibility !== 'public',
    };
  }

  async channelMeta(username: string, origin: string, language: Language | null = null): Promise<PageMeta | null> {
    const row = await this.deps.users.findByUsername(username);
    if (!row || row.banned_at !== null) return null;
    const site = await this.deps.site();
    // The page's feeds come in the page's language.
    const lang = language && language !== 'en' ? `?lang=${language}` : '';
    const t = translator(language);
    return {
      title: `${row.full_name} (@${row.username})`,
      description: t('pages.channelDescription', { name: row.full_name, site: site.name }),
      url: channelPageUrl(origin, row.username),
      siteName: site.name,
      type: 'profile',
      image: { url: absoluteUrl(origin, this.deps.avatarUrl(row.avatar_key)), alt: row.full_name },
      feeds: { rss: `${origin}/feeds/channel/${row.username}.xml${lang}`, atom: `${origin}/feeds/channel/${row.username}.atom${lang}` },
    };
  }

  /** oEmbed 1.0: an iframe of the embed page for the URL of a video anyone with the link may watch. */
  async oembed(query: OembedQuery, origin: string): Promise<Oembed> {
    if (query.format !== 'json') throw new AppError(501, 'NOT_IMPLEMENTED', 'Only format=json is offered');
    const id = videoIdOf(query.url, origin);
    const row = id ? await this.watchableVideo(id) : null;
    if (!row) throw notFound('Video');
    const site = await this.deps.site();
    const video = this.deps.presenter.summary(row);
    const size = fit(row.width, row.height, query.maxwidth ?? PLAYER.width, query.maxheight ?? PLAYER.height);
    const thumb = fit(row.width, row.height, THUMBNAIL.width, THUMBNAIL.height);
    const src = embedPageUrl(origin, row.id);
    return {
      version: '1.0',
      type: 'video',
      title: video.title,
      author_name: video.owner.fullName,
      author_url: channelPageUrl(origin, video.owner.username),
      provider_name: site.name,
      provider_url: `${origin}/`,
      cache_age: OEMBED_CACHE_AGE,
      thumbnail_url: absoluteUrl(origin, video.thumbnail.url),
      thumbnail_width: thumb.width,
      thumbnail_height: thumb.height,
      html: `<iframe src="${escapeHtml(src)}" width="${size.width}" height="${size.height}" title="${escapeHtml(video.title)}" frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen></iframe>`,
      width: size.width,
      height: size.height,
    };
  }
}

/** The video id of a URL of this site's video page (or embed page); null for anything else. */
export function videoIdOf(url: string, origin: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  // http and https of the same host are one site (a consumer may have dropped or added the s).
  if (u.host !== new URL(origin).host) return null;
  const m = /^\/(?:video|embed)\/([A-Za-z0-9_-]+)\/?$/.exec(u.pathname);
  return m ? m[1]! : null;
}

/** The largest size of the video's shape (16:9 when unknown) within the bounds, in whole pixels. */
export function fit(width: number | null, height: number | null, maxWidth: number, maxHeight: number) {
  const ratio = width && height ? width / height : 16 / 9;
  let w = maxWidth;
  let h = Math.round(w / ratio);
  if (h > maxHeight) {
    h = maxHeight;
    w = Math.round(h * ratio);
  }
  return { width: Math.max(1, w), height: Math.max(1, h) };
}
