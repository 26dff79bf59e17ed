/** Playback speeds offered in the menu and stepped through with `<` and `>` (YouTube's list). */
export const SPEED_STEPS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const;

/** One frame at the ladder's 30 fps: what `,` and `.` step by while paused. */
export const FRAME_SECONDS = 1 / 30;

/** The next speed up (+1) or down (-1) from `current`; stays at the ends of the list. */
export function stepSpeed(current: number, direction: 1 | -1): number {
  if (direction > 0) return SPEED_STEPS.find((s) => s > current + 1e-9) ?? SPEED_STEPS[SPEED_STEPS.length - 1];
  return [...SPEED_STEPS].reverse().find((s) => s < current - 1e-9) ?? SPEED_STEPS[0];
}

/** Keeps a target time within the media, [0, duration]; an unknown duration only floors at 0. */
export function clampTime(time: number, duration: number): number {
  const floored = Math.max(0, time);
  return Number.isFinite(duration) && duration > 0 ? Math.min(floored, duration) : floored;
}

/** The time one frame before (-1) or after (+1) `current`. */
export function frameStep(current: number, direction: 1 | -1, duration: number, frameSeconds = FRAME_SECONDS): number {
  return clampTime(current + direction * frameSeconds, duration);
}

/** Keeps a volume within [0, 1], rounded to whole percents so repeated steps do not drift. */
export function clampVolume(volume: number): number {
  return Math.round(Math.min(1, Math.max(0, volume)) * 100) / 100;
}
