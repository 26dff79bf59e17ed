import type { Envelope } from '@reelhouse/contract';

/** Wraps data in the envelope every answer carries. */
export function envelope<T>(data: T, message = 'Success', statusCode = 200): Envelope<T> {
  return { statusCode, data, message, success: statusCode < 400 };
}
