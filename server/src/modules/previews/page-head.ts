import { escapeHtml } from './html-escape.js';

/** What a shared link's preview shows (OpenGraph, Twitter cards) and how to discover its oEmbed. */
export interface PageMeta {
  title: string;
  description: string;
  /** The page's canonical address. */
  url: string;
  siteName: string;
  type: 'video.other' | 'profile';
  image: { url: string; alt: string } | null;
  /** The progressive mp4 a preview may play in place. */
  video?: { url: string; width: number; height: number };
  /** The embed page, for cards that play in an iframe. */
  player?: { url: string; width: number; height: number };
  /** The oEmbed endpoint's URL for this page. */
  oembed?: string;
  /** Reachable by its link, but not to be indexed (unlisted videos). */
  noindex?: boolean;
  /** The page's feeds, for readers that find them from the page (RSS first). */
  feeds?: { rss: string; atom: string };
}

const meta = (attr: 'property' | 'name', key: string, value: string | number) => `<meta ${attr}="${key}" content="${escapeHtml(String(value))}" />`;

/** The tags for a page's <head>, every value escaped. */
export function renderHead(m: PageMeta): string {
  const tags = [
    `<link rel="canonical" href="${escapeHtml(m.url)}" />`,
    meta('name', 'description', m.description),
    meta('property', 'og:site_name', m.siteName),
    meta('property', 'og:type', m.type),
    meta('property', 'og:title', m.title),
    meta('property', 'og:description', m.description),
    meta('property', 'og:url', m.url),
  ];
  if (m.noindex) tags.push(meta('name', 'robots', 'noindex'));
  if (m.image) tags.push(meta('property', 'og:image', m.image.url), meta('property', 'og:image:alt', m.image.alt));
  if (m.video) {
    tags.push(meta('property', 'og:video', m.video.url));
    if (m.video.url.startsWith('https:')) tags.push(meta('property', 'og:video:secure_url', m.video.url));
    tags.push(
      meta('property', 'og:video:type', 'video/mp4'),
      meta('property', 'og:video:width', m.video.width),
      meta('property', 'og:video:height', m.video.height),
    );
  }
  tags.push(meta('name', 'twitter:card', m.player ? 'player' : m.type === 'profile' ? 'summary' : 'summary_large_image'));
  tags.push(meta('name', 'twitter:title', m.title), meta('name', 'twitter:description', m.description));
  if (m.image) tags.push(meta('name', 'twitter:image', m.image.url));
  if (m.player) {
    tags.push(
      meta('name', 'twitter:player', m.player.url),
      meta('name', 'twitter:player:width', m.player.width),
      meta('name', 'twitter:player:height', m.player.height),
    );
  }
  if (m.feeds) {
    tags.push(
      `<link rel="alternate" type="application/rss+xml" href="${escapeHtml(m.feeds.rss)}" title="${escapeHtml(m.title)}" />`,
      `<link rel="alternate" type="application/atom+xml" href="${escapeHtml(m.feeds.atom)}" title="${escapeHtml(m.title)}" />`,
    );
  }
  if (m.oembed) tags.push(`<link rel="alternate" type="application/json+oembed" href="${escapeHtml(m.oembed)}" title="${escapeHtml(m.title)}" />`);
  return tags.join('\n    ');
}

/**
 * The client's index.html with this page's title and tags. The page stays the same application:
 * nothing but <title> and <head> tags change, and no script is added (the policy allows the
 * theme script by its hash, and only it).
 */
export function withHead(indexHtml: string, m: PageMeta): string {
  const title = `<title>${escapeHtml(m.title)} - ${escapeHtml(m.siteName)}</title>`;
  const tags = `${title}\n    ${renderHead(m)}`;
  const stripped = indexHtml.replace(/<title>[\s\S]*?<\/title>\s*/i, '').replace(/<meta name="description"[^>]*>\s*/i, '');
  if (/<\/head>/i.test(stripped)) return stripped.replace(/<\/head>/i, () => `  ${tags}\n  </head>`);
  return stripped.replace(/^(<!doctype html>)?/i, (doctype) => `${doctype}<head>${tags}</head>`);
}
