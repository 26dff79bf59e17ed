import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { shouldCountView, WatchTimeTracker } from './watch-time';

export interface ViewCounterOptions {
  videoId: string;
  /** The video's known duration in seconds; 0 or less to use `mediaDuration` instead. */
  duration: number;
  onViewCounted(): void;
}

export interface ViewCounter {
  /** A playback position reported by the player; `seeking` while a seek is under way. */
  onTime(position: number, seeking: boolean, mediaDuration: number): void;
  /** A seek started, the source changed or the element emptied: not watched time. */
  onInterrupt(): void;
}

/**
 * Calls `onViewCounted` once when the watched time (intervals actually played, see
 * WatchTimeTracker) reaches the view rule; once again only for another `videoId`.
 */
export function useViewCounter({ videoId, duration, onViewCounted }: ViewCounterOptions): ViewCounter {
  const tracker = useRef(new WatchTimeTracker());
  const counted = useRef(false);
  const latest = useRef({ duration, onViewCounted });
  useLayoutEffect(() => {
    latest.current = { duration, onViewCounted };
  });

  useEffect(() => {
    tracker.current.reset();
    counted.current = false;
  }, [videoId]);

  const onTime = useCallback((position: number, seeking: boolean, mediaDuration: number) => {
    if (seeking) {
      tracker.current.interrupt();
      return;
    }
    const watched = tracker.current.progress(position);
    if (counted.current) return;
    const total = latest.current.duration > 0 ? latest.current.duration : mediaDuration;
    if (shouldCountView(watched, total)) {
      counted.current = true;
      latest.current.onViewCounted();
    }
  }, []);

  const onInterrupt = useCallback(() => tracker.current.interrupt(), []);

  return { onTime, onInterrupt };
}
