/** When a saved position counts as "watched to the end": within this many seconds of the end... */
export const FINISHED_TAIL_SECONDS = 3;
/** ...or past this share of the video. */
export const FINISHED_FRACTION = 0.95;
/** Positions before this are not worth resuming (or drawing a progress bar for). */
export const MIN_RESUME_SECONDS = 2;

/** True once playback is close enough to the end that the next visit should start over. */
export function isFinished(position: number, duration: number): boolean {
  if (!(duration > 0)) return false;
  return position >= duration * FINISHED_FRACTION || duration - position <= FINISHED_TAIL_SECONDS;
}

/** The position to resume from, or null when there is none worth offering (too early, or finished). */
export function resumePosition(position: number | null | undefined, duration: number): number | null {
  if (position == null || !Number.isFinite(position) || position < MIN_RESUME_SECONDS) return null;
  if (isFinished(position, duration)) return null;
  return position;
}

/** How much of the video was watched, 0..1, for a card's progress bar; 0 when nothing to show. */
export function watchedFraction(position: number | null | undefined, duration: number): number {
  if (!(duration > 0) || resumePosition(position, duration) === null) return 0;
  return Math.min(1, (position as number) / duration);
}
