/**
 * What others want to hear about a video's life (notifications do): told after the change has
 * committed, never inside its transaction. Each call may repeat; listeners act once per event.
 */
export interface VideoEvents {
  /** Processing made the video playable. */
  videoReady(videoId: string): Promise<void>;
  /** Processing gave up on the video; the reason is on its row. */
  videoFailed(videoId: string): Promise<void>;
  /** The video may have become listed (published, made public). */
  videoListed(videoId: string): Promise<void>;
}

/** Calls a listener without letting its failure undo or fail the change it hears about. */
export async function tell(logger: { warn(obj: object, msg: string): void }, what: string, call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (err) {
    logger.warn({ err, event: what }, 'a video event listener failed');
  }
}
