/**
 * What went wrong with a media file or a media tool, in terms a caller can act on:
 * - unreadable: the bytes are not a media file we can decode (corrupt, truncated, garbage);
 * - unsupported: a real media file, but of a kind we do not accept;
 * - failed: the tool ran and failed for another reason;
 * - timeout: the tool ran past its time limit (or was aborted).
 */
export type MediaErrorKind = 'unreadable' | 'unsupported' | 'failed' | 'timeout';

export class MediaError extends Error {
  constructor(
    readonly kind: MediaErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'MediaError';
  }
}
