import type { Readable } from 'node:stream';

export interface StoredObject {
  size: number;
  contentType: string;
  /** Validators for HTTP caching, when the backend has them cheaply. */
  etag?: string;
  lastModified?: Date;
}

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/**
 * Where media lives. Keys are slash-separated paths; every file of a video lives under
 * `videos/<id>/` and every image of a user under `users/<id>/`, so deleting a prefix deletes all.
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  /** Streams body to key; the object appears whole or not at all. */
  put(key: string, body: Readable | Buffer, contentType?: string): Promise<StoredObject>;
  /** Uploads a local file to key. */
  putFile(key: string, filePath: string, contentType?: string): Promise<StoredObject>;
  /** Copies an object to a local file (ffmpeg's input). */
  download(key: string, filePath: string): Promise<void>;
  stat(key: string): Promise<StoredObject | null>;
  read(key: string, range?: ByteRange): Promise<Readable>;
  list(prefix: string): Promise<string[]>;
  delete(key: string): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  /** The URL a browser uses for the object (relative `/media/...` when the API serves it). */
  url(key: string): string;
  /** A path ffmpeg can read in place, when the object is on this machine's disk. */
  localPath(key: string): string | null;
  healthy(): Promise<boolean>;
}

const CONTENT_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  m4s: 'video/iso.segment',
  m3u8: 'application/vnd.apple.mpegurl',
  vtt: 'text/vtt; charset=utf-8',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  json: 'application/json',
};

export function contentTypeFor(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

/**
 * A media "key" that is a whole http(s) address names a file another server keeps: a remote
 * channel's avatar, a remote video's thumbnail, HLS master or mp4. Its URL is itself, and this
 * site never writes or deletes it.
 */
export function isElsewhere(key: string): boolean {
  return /^https?:\/\//i.test(key);
}

/** Keys never climb out of their prefix and never start with a slash. */
export function assertSafeKey(key: string): void {
  if (!key || key.startsWith('/') || key.split('/').some((p) => p === '..' || p === '.' || p === '') || key.includes('\\')) {
    throw new Error(`Unsafe storage key: ${key}`);
  }
}

export const videoPrefix = (videoId: string) => `videos/${videoId}/`;
/** A live broadcast's master playlist while it is on air; its rungs and segments sit beside it (apart from `live/`, the rendition of an upload in an odd codec). */
export const liveMasterKey = (videoId: string) => `${videoPrefix(videoId)}broadcast/master.m3u8`;
export const userPrefix = (userId: string) => `users/${userId}/`;
