import { useCallback, useEffect, useState } from 'react';

export const AUTOPLAY_STORAGE_KEY = 'reelhouse:autoplay';
/** Seconds the "Up next" countdown runs before the next video opens. */
export const AUTOPLAY_COUNTDOWN_SECONDS = 5;

/** The autoplay switch: on unless the viewer turned it off (remembered in this browser). */
export function readAutoplay(storage: Storage | null): boolean {
  try {
    return storage?.getItem(AUTOPLAY_STORAGE_KEY) !== 'off';
  } catch {
    return true;
  }
}

export function writeAutoplay(storage: Storage | null, on: boolean): void {
  try {
    storage?.setItem(AUTOPLAY_STORAGE_KEY, on ? 'on' : 'off');
  } catch {
    // Forbidden storage: the choice lasts for this page.
  }
}

/** Whole seconds left of a countdown of `seconds` started at `startedAt` (ms), never below 0. */
export function secondsLeft(startedAt: number, now: number, seconds: number): number {
  return Math.max(0, Math.ceil(seconds - (now - startedAt) / 1000));
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function useAutoplaySetting(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => readAutoplay(storage()));
  const change = useCallback((next: boolean) => {
    writeAutoplay(storage(), next);
    setOn(next);
  }, []);
  return [on, change];
}

/** Counts down from `seconds` and calls onDone once at 0; returns the seconds left. */
export function useCountdown(seconds: number, onDone: () => void, now: () => number = Date.now): number {
  const [startedAt] = useState(now);
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    let done = false;
    const timer = window.setInterval(() => {
      const next = secondsLeft(startedAt, now(), seconds);
      setLeft(next);
      if (next === 0 && !done) {
        done = true;
        window.clearInterval(timer);
        onDone();
      }
    }, 200);
    return () => window.clearInterval(timer);
  }, [startedAt, seconds, onDone, now]);
  return left;
}
