import type { Visibility } from '@reelhouse/contract';
import { imageError } from '../../http/image-error.js';
import { validationFailed } from '../../http/errors.js';
import type { UploadedFile } from '../../http/multipart.js';
import { processImage } from '../../media/image.js';

/**
 * What an upload and an owner's edit share: how a thumbnail image is stored, and the rules that
 * tie a visibility to a publishing schedule.
 */

/** Thumbnails are stored no larger than the player (16:9 720p), never enlarged. */
export const THUMBNAIL = { width: 1280, height: 720, fit: 'inside' } as const;
const MAX_INPUT_PIXELS = 40_000_000;

export const BOTH_THUMBNAILS = 'Send either a thumbnail image or a thumbnailTime, not both';

/** An uploaded thumbnail image, re-encoded as WebP; a bad image is a 415 or 422 about `thumbnail`. */
export async function thumbnailImage(file: UploadedFile): Promise<Buffer> {
  try {
    return await processImage(file.path, { ...THUMBNAIL, maxInputPixels: MAX_INPUT_PIXELS });
  } catch (err) {
    throw imageError('thumbnail', err);
  }
}

/**
 * Checks a requested schedule: publishAt must lie ahead of `now`, and a scheduled video is private
 * until then, so a visibility sent with it may only be private. Returns the time in milliseconds.
 */
export function scheduleTime(fields: { visibility?: Visibility; publishAt?: string }, now: number): number | undefined {
  if (fields.publishAt === undefined) return undefined;
  const publishAt = Date.parse(fields.publishAt);
  if (publishAt <= now) throw validationFailed([{ path: 'publishAt', message: 'publishAt must be in the future' }]);
  if (fields.visibility !== undefined && fields.visibility !== 'private') {
    throw validationFailed([{ path: 'visibility', message: 'A scheduled video is private until its publishAt; leave visibility out or send private' }]);
  }
  return publishAt;
}
