import { type Context, Create, Delete, Image, Link, PUBLIC_COLLECTION, Tombstone, Update, Video } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { absoluteUrl, videoPageUrl } from '../previews/site-urls.js';
import type { FederatedVideoRow } from './federation.repository.js';

/** Where a video and its channel live, as absolute addresses. */
export interface VideoAddresses {
  /** The Video object's id on this site. */
  object: URL;
  /** The channel's actor and its followers collection. */
  actor: URL;
  followers: URL;
  /** The watch page. */
  page: URL;
  mp4: URL | null;
  hls: URL | null;
  thumbnail: URL;
}

/** What addresses are built from: the site's public origin and where a stored file is served. */
export interface SiteAddresses {
  origin: string;
  mediaUrl: (key: string) => string;
}

/** A video's addresses, as the library names its objects and actors. */
export function videoAddresses(ctx: Context<void>, row: FederatedVideoRow, site: SiteAddresses): VideoAddresses {
  const abs = (url: string) => new URL(absoluteUrl(site.origin, url));
  return {
    object: ctx.getObjectUri(Video, { id: row.id }),
    actor: ctx.getActorUri(row.owner_id),
    followers: ctx.getFollowersUri(row.owner_id),
    page: abs(videoPageUrl(site.origin, row.id)),
    mp4: row.video_key ? abs(site.mediaUrl(row.video_key)) : null,
    hls: row.hls_key ? abs(site.mediaUrl(row.hls_key)) : null,
    thumbnail: abs(site.mediaUrl(row.thumbnail_key)),
  };
}

const IMAGE_TYPES: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/** The media type of an image by its file name; JPEG, what thumbnails are made as, when it says nothing. */
export function imageType(url: URL): string {
  const ext = /\.([a-z0-9]+)$/i.exec(url.pathname)?.[1]?.toLowerCase() ?? '';
  return IMAGE_TYPES[ext] ?? 'image/jpeg';
}

/** Plain text as the HTML other servers show: escaped, paragraphs and line breaks kept. */
export function textToHtml(text: string): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return escaped
    .split(/\r?\n\s*\r?\n/)
    .filter((p) => p.trim())
    .map((p) => `<p>${p.replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
}

/**
 * A video as the `Video` object PeerTube publishes: title, description, duration (ISO 8601, whole
 * seconds), its page, HLS master and progressive file as links, the thumbnail as icon, addressed
 * to everyone and the channel's followers. Null for a video that must not leave the site: only the
 * listed ones (video-access.ts) ever do.
 */
export function videoObject(row: FederatedVideoRow, at: VideoAddresses): Video | null {
  if (row.listed !== 1) return null;
  const urls: Link[] = [new Link({ href: at.page, mediaType: 'text/html', rel: 'alternate' })];
  if (at.hls) urls.push(new Link({ href: at.hls, mediaType: 'application/x-mpegURL' }));
  if (at.mp4) urls.push(new Link({ href: at.mp4, mediaType: 'video/mp4', width: row.width, height: row.height }));
  return new Video({
    id: at.object,
    name: row.title,
    content: textToHtml(row.description),
    mediaType: 'text/html',
    duration: Temporal.Duration.from({ seconds: Math.round(Number(row.duration)) }),
    urls,
    icon: new Image({ url: at.thumbnail, mediaType: imageType(at.thumbnail) }),
    published: Temporal.Instant.fromEpochMilliseconds(publishedAt(row)),
    updated: Temporal.Instant.fromEpochMilliseconds(Number(row.updated_at)),
    attribution: at.actor,
    to: PUBLIC_COLLECTION,
    cc: at.followers,
  });
}

/** A scheduled video was published when its schedule turned it public, not when it was uploaded. */
function publishedAt(row: FederatedVideoRow): number {
  return row.publish_at !== null ? Number(row.publish_at) : Number(row.created_at);
}

/**
 * A video's creation by the channel: the outbox's entry (no `sentAt`), or the Create delivered to
 * followers, whose id is new each time it is sent, since receivers drop an activity id they have seen.
 */
export function videoCreated(video: Video, at: VideoAddresses, sentAt?: number): Create {
  return new Create({
    id: new URL(`${at.object.href}#create${sentAt === undefined ? '' : `-${sentAt}`}`),
    actor: at.actor,
    object: video,
    published: video.published,
    to: PUBLIC_COLLECTION,
    cc: at.followers,
  });
}

/** An edit of a video followers were told of: the whole object again, as PeerTube sends it. */
export function videoUpdated(video: Video, at: VideoAddresses): Update {
  return new Update({
    id: new URL(`${at.object.href}#update-${video.updated?.epochMilliseconds ?? Date.now()}`),
    actor: at.actor,
    object: video,
    published: video.updated,
    to: PUBLIC_COLLECTION,
    cc: at.followers,
  });
}

/** A video that followers were told of and must now forget: deleted, made private or unlisted, or taken down. */
export function videoDeleted(at: { object: URL; actor: URL; followers: URL }, sentAt: number): Delete {
  return new Delete({
    id: new URL(`${at.object.href}#delete-${sentAt}`),
    actor: at.actor,
    object: new Tombstone({ id: at.object }),
    to: PUBLIC_COLLECTION,
    cc: at.followers,
  });
}
