/** A view counts once this much playback has actually been watched... */
export const VIEW_MIN_WATCHED_SECONDS = 30;
/** ...or this share of the video, whichever comes first (short videos). */
export const VIEW_MIN_WATCHED_FRACTION = 0.95;

/**
 * Whether watched playback time is enough to count a view: 30 s, or 95% of the duration.
 * An unknown or zero duration leaves only the 30 s rule.
 */
export function shouldCountView(watchedSeconds: number, duration: number): boolean {
  if (!Number.isFinite(watchedSeconds) || watchedSeconds <= 0) return false;
  if (watchedSeconds >= VIEW_MIN_WATCHED_SECONDS) return true;
  return Number.isFinite(duration) && duration > 0 && watchedSeconds >= duration * VIEW_MIN_WATCHED_FRACTION;
}

/**
 * Sums the playback intervals that were actually played, from the positions the media element
 * reports while it plays. Jumps (seeks) are not watched time: the caller marks them with
 * `interrupt()`, and as a second guard any forward step longer than `maxStepSeconds` between two
 * reports is treated as a jump too (progress reports arrive every ~250 ms while playing).
 * Replaying a part counts again: it was watched again.
 */
export class WatchTimeTracker {
  #last: number | null = null;
  #watched = 0;

  constructor(private readonly maxStepSeconds = 2) {}

  /** Total watched seconds so far. */
  get watched(): number {
    return this.#watched;
  }

  /** A position reported by the media element (timeupdate). Returns the watched total. */
  progress(position: number): number {
    if (!Number.isFinite(position)) return this.#watched;
    const last = this.#last;
    if (last !== null) {
      const step = position - last;
      if (step > 0 && step <= this.maxStepSeconds) this.#watched += step;
    }
    this.#last = position;
    return this.#watched;
  }

  /** A seek, a source change or an emptied element: the next report starts a new interval. */
  interrupt(): void {
    this.#last = null;
  }

  /** Forget everything (another video). */
  reset(): void {
    this.#last = null;
    this.#watched = 0;
  }
}
