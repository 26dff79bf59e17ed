import type { UploadedFile } from '../../http/multipart.js';
import { imageError } from '../../http/image-error.js';
import { newId } from '../../lib/ids.js';
import { processImage } from '../../media/image.js';
import { type Storage, userPrefix } from '../../storage/storage.js';

const AVATAR = { width: 256, height: 256, fit: 'cover' } as const;
const COVER = { width: 1600, height: 400, fit: 'cover' } as const;
const MAX_INPUT_PIXELS = 40_000_000;

/**
 * An account's avatar or cover image, decoded and encoded again as WebP at its size (so that what is
 * stored is never the uploaded file itself), under a new key in the account's folder. A file that
 * is no image, or too large a one, is refused with the field's name.
 */
export async function storeAccountImage(storage: Storage, userId: string, field: 'avatar' | 'coverImage', file: UploadedFile): Promise<string> {
  const size = field === 'avatar' ? AVATAR : COVER;
  let webp: Buffer;
  try {
    webp = await processImage(file.path, { ...size, maxInputPixels: MAX_INPUT_PIXELS });
  } catch (err) {
    throw imageError(field, err);
  }
  const key = `${userPrefix(userId)}${field === 'avatar' ? 'avatar' : 'cover'}-${newId()}.webp`;
  await storage.put(key, webp, 'image/webp');
  return key;
}
