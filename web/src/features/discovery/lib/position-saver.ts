import { isFinished } from './resume-rules';

/** How often a playing video's position is saved. */
export const SAVE_INTERVAL_MS = 10_000;

export interface PositionSaverOptions {
  /**
   * Stores a position; null when the video was watched to the end (forget it). `leaving`: the page is
   * going away, so the save must be sent in a way that outlives it.
   */
  save(position: number | null, leaving: boolean): void;
  intervalMs?: number;
  now?: () => number;
}

/**
 * Throttles position saves while a video plays: at most one per interval from time updates, and
 * one at once on pause, end or leave (`flush`) unless nothing changed since the last save.
 */
export class PositionSaver {
  private latest: number | null = null;
  private duration = 0;
  private saved: number | null | undefined = undefined;
  private lastSaveAt = -Infinity;
  private readonly intervalMs: number;
  private readonly now: () => number;

  constructor(private readonly options: PositionSaverOptions) {
    this.intervalMs = options.intervalMs ?? SAVE_INTERVAL_MS;
    this.now = options.now ?? Date.now;
  }

  /** A time update from the player. */
  update(position: number, duration: number): void {
    if (!Number.isFinite(position) || position < 0) return;
    this.latest = position;
    if (duration > 0) this.duration = duration;
    // The first save comes an interval after playback starts, not with its first frame.
    if (this.lastSaveAt === -Infinity) this.lastSaveAt = this.now();
    if (this.now() - this.lastSaveAt >= this.intervalMs) this.write();
  }

  /** Saves now (pause, or `leaving` the page); does nothing when nothing new was played. */
  flush(leaving = false): void {
    if (this.latest !== null) this.write(leaving);
  }

  /** Playback reached the end: the position is forgotten. */
  ended(): void {
    if (this.duration > 0) this.latest = this.duration;
    this.write();
  }

  private write(leaving = false): void {
    const value = this.latest === null || isFinished(this.latest, this.duration) ? null : Math.floor(this.latest * 10) / 10;
    this.lastSaveAt = this.now();
    if (value === this.saved) return;
    this.saved = value;
    this.options.save(value, leaving);
  }
}
