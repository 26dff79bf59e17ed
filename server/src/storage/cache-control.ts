const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Playlists are tiny and cheap to refetch; a short life lets a re-made ladder show up quickly. */
const PLAYLIST = 'public, max-age=10';
/** A live rendition's playlist grows every second or two: players must see each new segment. */
const LIVE_PLAYLIST = 'no-cache';
const DEFAULT = 'public, max-age=3600';

/** A hex run this long in a file name means the name is derived from the content. */
const CONTENT_HASH = /[0-9a-f]{16,}/i;

/**
 * How long browsers and CDNs may keep a media object. Segments, init files, images and sprites
 * never change under their key (a new upload writes a new key), so they are cached for a year.
 */
export function cacheControlFor(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1).toLowerCase();
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : '';
  if (ext === 'm3u8') return /(^|\/)live\//.test(key) ? LIVE_PLAYLIST : PLAYLIST;
  if (['m4s', 'ts', 'jpg', 'jpeg', 'png', 'webp', 'avif'].includes(ext)) return IMMUTABLE;
  if (ext === 'mp4' && (/(^|\/)hls\//.test(key.toLowerCase()) || name.startsWith('init'))) return IMMUTABLE;
  if (CONTENT_HASH.test(name)) return IMMUTABLE;
  return DEFAULT;
}
