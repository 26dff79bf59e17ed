/**
 * Where playback stopped, per video. Signed out, positions live in localStorage (the latest
 * MAX_SAVED_POSITIONS videos, oldest dropped first); signed in they live on the server, and this
 * tab's own saves are kept in memory on top (`session`) so cards and reopened pages show them at
 * once, before any cached list is fetched again.
 */
export const POSITIONS_STORAGE_KEY = 'reelhouse:watch-positions';
export const MAX_SAVED_POSITIONS = 200;

/** [videoId, seconds], most recently saved last. */
type Entry = [string, number];

export interface PositionStore {
  get(videoId: string): number | null;
  /** Saves a position; null forgets the video. */
  set(videoId: string, seconds: number | null): void;
  /** Whether this store knows anything (a position or its absence) about the video. */
  has(videoId: string): boolean;
  subscribe(listener: () => void): () => void;
  /** Changes whenever any position changes, for useSyncExternalStore. */
  version(): number;
}

function parse(raw: string | null): Entry[] {
  try {
    const value: unknown = raw ? JSON.parse(raw) : [];
    if (!Array.isArray(value)) return [];
    return value.filter((e): e is Entry => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'number' && Number.isFinite(e[1]) && e[1] >= 0);
  } catch {
    return [];
  }
}

function notifier() {
  const listeners = new Set<() => void>();
  let version = 0;
  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    version: () => version,
    changed() {
      version++;
      for (const l of listeners) l();
    },
  };
}

/**
 * A bounded store in `storage` (localStorage, or null where it is unavailable: nothing is kept then).
 * Other tabs' saves are picked up through the storage event when `target` is given.
 */
export function createLocalPositionStore(
  storage: Storage | null,
  { limit = MAX_SAVED_POSITIONS, key = POSITIONS_STORAGE_KEY, target }: { limit?: number; key?: string; target?: EventTarget } = {},
): PositionStore {
  const notes = notifier();
  let entries: Entry[] | null = null;
  const read = (): Entry[] => {
    if (entries === null) {
      try {
        entries = parse(storage?.getItem(key) ?? null);
      } catch {
        entries = [];
      }
    }
    return entries;
  };
  target?.addEventListener('storage', (event) => {
    if ((event as StorageEvent).key !== key) return;
    entries = null;
    notes.changed();
  });
  return {
    get(videoId) {
      return read().find((e) => e[0] === videoId)?.[1] ?? null;
    },
    has(videoId) {
      return read().some((e) => e[0] === videoId);
    },
    set(videoId, seconds) {
      const rest = read().filter((e) => e[0] !== videoId);
      const next: Entry[] = seconds === null ? rest : [...rest, [videoId, Math.round(seconds * 10) / 10]];
      entries = next.slice(Math.max(0, next.length - limit));
      try {
        storage?.setItem(key, JSON.stringify(entries));
      } catch {
        // Full or forbidden storage: the position is kept for this page only.
      }
      notes.changed();
    },
    subscribe: notes.subscribe,
    version: notes.version,
  };
}

/** Positions held in memory only: a signed-in viewer's saves in this tab. */
export function createMemoryPositionStore(): PositionStore & { clear(): void } {
  const notes = notifier();
  const map = new Map<string, number | null>();
  return {
    get: (videoId) => map.get(videoId) ?? null,
    has: (videoId) => map.has(videoId),
    set(videoId, seconds) {
      map.set(videoId, seconds);
      notes.changed();
    },
    clear() {
      if (map.size === 0) return;
      map.clear();
      notes.changed();
    },
    subscribe: notes.subscribe,
    version: notes.version,
  };
}

function browserStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export const localPositions = createLocalPositionStore(browserStorage(), {
  target: typeof window === 'undefined' ? undefined : window,
});
export const sessionPositions = createMemoryPositionStore();

/**
 * The position to show for a video: signed in, this tab's own saves first, then the server's
 * `watchPosition`; signed out, this browser's.
 */
export function knownPosition(videoId: string, signedIn: boolean, serverPosition: number | null | undefined): number | null {
  if (!signedIn) return localPositions.get(videoId);
  if (sessionPositions.has(videoId)) return sessionPositions.get(videoId);
  return serverPosition ?? null;
}
