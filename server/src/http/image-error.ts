import { MediaError } from '../media/media-error.js';
import { type AppError, unprocessable, unsupportedMediaType } from './errors.js';

/** An image upload the media library refused, as the answer people see: 415 or 422 naming the field. */
export function imageError(field: string, err: unknown): AppError {
  if (err instanceof MediaError) {
    return err.kind === 'unsupported'
      ? unsupportedMediaType(`${field} must be a png, jpeg, jpg or webp image`)
      : unprocessable(`${field} is not a readable image`);
  }
  throw err;
}
