import sharp from 'sharp';
import { MediaError } from './media-error.js';

export interface ImageOptions {
  /** Decoding refuses images with more pixels than this (decompression bombs). */
  maxInputPixels?: number;
  width: number;
  height: number;
  /** cover: crop to exactly width x height (thumbnails, covers); inside: fit within, never enlarge. */
  fit: 'cover' | 'inside';
  quality?: number;
}

/** Formats are judged by decoding, not by file name or declared type. */
const ACCEPTED = new Set(['jpeg', 'png', 'webp']);
const DEFAULT_MAX_PIXELS = 40_000_000;

/**
 * Decodes an uploaded image, turns it upright, drops all metadata (EXIF, GPS, ICC comments) and
 * re-encodes it as WebP at the requested size.
 */
export async function processImage(inputPath: string, opts: ImageOptions): Promise<Buffer> {
  const limitInputPixels = opts.maxInputPixels ?? DEFAULT_MAX_PIXELS;
  let format: string | undefined;
  try {
    ({ format } = await sharp(inputPath, { limitInputPixels: false }).metadata());
  } catch {
    throw new MediaError('unreadable', 'The file is not a readable image');
  }
  if (!format || !ACCEPTED.has(format)) {
    throw new MediaError('unsupported', 'Only JPEG, PNG and WebP images are supported');
  }
  try {
    // sharp writes no metadata unless asked (withMetadata/keepExif), so GPS and EXIF go here.
    return await sharp(inputPath, { limitInputPixels, failOn: 'error', animated: false })
      .rotate()
      .resize({
        width: opts.width,
        height: opts.height,
        fit: opts.fit,
        withoutEnlargement: opts.fit === 'inside',
      })
      .webp({ quality: opts.quality ?? 82 })
      .toBuffer();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/pixel limit/i.test(message)) throw new MediaError('unsupported', 'The image is too large');
    throw new MediaError('unreadable', 'The file is not a readable image');
  }
}

/**
 * A plain 16:9 card in the site's dark tone: the thumbnail of a live video until its owner sets one
 * (nothing has been filmed yet when it is made).
 */
export function plainThumbnail(width = 1280, height = 720): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 24, g: 24, b: 32 } } })
    .webp({ quality: 80 })
    .toBuffer();
}
