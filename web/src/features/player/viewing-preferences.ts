import { useSyncExternalStore } from 'react';

/**
 * How this device plays videos, for everyone (signed in or not): kept in localStorage, changed
 * from the player's accessibility menu or the account settings, and read live by every player.
 */
export interface ViewingPreferences {
  /** The single-key shortcuts (k, j, l, f, m, digits...). Off for people whose speech input or switch device types letters. */
  keyboardShortcuts: boolean;
  /** Captions come on by themselves whenever a video has them, in the interface's language where there is one. */
  captionsByDefault: boolean;
}

export const VIEWING_PREFERENCES_KEY = 'reelhouse:viewing';
const DEFAULTS: ViewingPreferences = { keyboardShortcuts: true, captionsByDefault: false };

const listeners = new Set<() => void>();
let cached: { raw: string | null; value: ViewingPreferences } | null = null;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** The preferences as stored now (the defaults for anything missing or unreadable). */
export function readViewingPreferences(): ViewingPreferences {
  let raw: string | null = null;
  try {
    raw = storage()?.getItem(VIEWING_PREFERENCES_KEY) ?? null;
  } catch {
    raw = null;
  }
  if (cached && cached.raw === raw) return cached.value;
  let value = DEFAULTS;
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (parsed && typeof parsed === 'object') {
      const saved = parsed as Partial<Record<keyof ViewingPreferences, unknown>>;
      value = {
        keyboardShortcuts: typeof saved.keyboardShortcuts === 'boolean' ? saved.keyboardShortcuts : DEFAULTS.keyboardShortcuts,
        captionsByDefault: typeof saved.captionsByDefault === 'boolean' ? saved.captionsByDefault : DEFAULTS.captionsByDefault,
      };
    }
  } catch {
    value = DEFAULTS;
  }
  // The same object while nothing changed, as useSyncExternalStore requires.
  cached = { raw, value };
  return value;
}

export function setViewingPreference<K extends keyof ViewingPreferences>(name: K, value: ViewingPreferences[K]): void {
  try {
    storage()?.setItem(VIEWING_PREFERENCES_KEY, JSON.stringify({ ...readViewingPreferences(), [name]: value }));
  } catch {
    // Full or forbidden storage: the choice holds until the page is left.
    cached = { raw: null, value: { ...readViewingPreferences(), [name]: value } };
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab's change shows here too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === VIEWING_PREFERENCES_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useViewingPreferences(): ViewingPreferences {
  return useSyncExternalStore(subscribe, readViewingPreferences, () => DEFAULTS);
}
