/**
 * The page's one player, reachable from the rest of the page. Transcript lines, chapter lists and
 * timestamps in a description or a comment seek it through here instead of a ref threaded through
 * every component between them. This module is tiny and eager on purpose: the player itself is a
 * lazily loaded chunk, and the parts that seek it must not pull that chunk in.
 */
export interface PlayerControl {
  /** Moves playback to `seconds` and plays. */
  seek(seconds: number): void;
  /** Playback position in seconds. */
  currentTime(): number;
}

let active: PlayerControl | null = null;

/**
 * A seek asked for before the player was there: the player is a lazily loaded chunk, and a page
 * whose data came quickly shows its timestamps first. The player that attaches next takes it, if it
 * comes soon enough to be the one the viewer meant.
 */
const PENDING_SEEK_MS = 10_000;
let pending: { seconds: number; at: number; page: string } | null = null;
const currentPage = () => (typeof window === 'undefined' ? '' : window.location.pathname);

/** Called by the player when it mounts; the returned function detaches it (only if still attached). */
export function attachPlayer(control: PlayerControl): () => void {
  active = control;
  const asked = pending;
  pending = null;
  // Only on the page it was asked on: a player of another video (autoplay, a link) starts as its own.
  if (asked && asked.page === currentPage() && Date.now() - asked.at <= PENDING_SEEK_MS) control.seek(asked.seconds);
  return () => {
    if (active !== control) return;
    active = null;
  };
}

/** Seeks the page's player; false when no player is on the page yet (it seeks when it comes). */
export function seekPlayer(seconds: number): boolean {
  if (!Number.isFinite(seconds) || seconds < 0) return false;
  if (!active) {
    pending = { seconds, at: Date.now(), page: currentPage() };
    return false;
  }
  active.seek(seconds);
  return true;
}

/** The page's player's position, or null without one. */
export function playerTime(): number | null {
  return active ? active.currentTime() : null;
}
