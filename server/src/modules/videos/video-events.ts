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
  /** What others see of the video may have changed: edited, hidden or shown, made private, or deleted (the row may be gone). */
  videoChanged(videoId: string): Promise<void>;
}

/**
 * Several listeners heard as one, in turn; each hears only the events it has a method for, and one
 * that fails (logged) does not keep the others from hearing.
 */
export function videoEventsOf(logger: { warn(obj: object, msg: string): void }, ...listeners: (Partial<VideoEvents> | undefined)[]): VideoEvents {
  const all = listeners.filter((l): l is Partial<VideoEvents> => l !== undefined);
  const each = (event: keyof VideoEvents) => async (videoId: string) => {
    for (const listener of all) {
      const call = listener[event]?.bind(listener);
      if (call) await tell(logger, event, () => call(videoId));
    }
  };
  return { videoReady: each('videoReady'), videoFailed: each('videoFailed'), videoListed: each('videoListed'), videoChanged: each('videoChanged') };
}

/** Calls a listener without letting its failure undo or fail the change it hears about. */
export async function tell(logger: { warn(obj: object, msg: string): void }, what: string, call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (err) {
    logger.warn({ err, event: what }, 'a video event listener failed');
  }
}
