import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { savePosition, savePositionOnLeave } from '../api/discovery.api';
import { PositionSaver } from './position-saver';
import { knownPosition, localPositions, sessionPositions } from './position-store';

export interface PositionTracking {
  onTimeChange(currentTime: number, duration: number): void;
  onPause(): void;
  onEnded(): void;
}

/**
 * Saves the viewer's place in a video while it plays: on the server when signed in (throttled, and
 * once more on pause, end, leaving the page or closing the tab), in this browser when signed out.
 * A video watched to the end is forgotten.
 */
export function usePositionTracking(videoId: string, signedIn: boolean): PositionTracking {
  const saver = useMemo(
    () =>
      new PositionSaver({
        save(position, leaving) {
          if (!signedIn) {
            localPositions.set(videoId, position);
            return;
          }
          sessionPositions.set(videoId, position);
          if (leaving) savePositionOnLeave(videoId, position ?? 0);
          else savePosition(videoId, position ?? 0).catch(() => {});
        },
      }),
    [videoId, signedIn],
  );

  useEffect(() => {
    const onLeave = () => saver.flush(true);
    window.addEventListener('pagehide', onLeave);
    return () => {
      window.removeEventListener('pagehide', onLeave);
      // Another video, another page of the site, or signing in or out: the place so far is kept.
      onLeave();
    };
  }, [saver]);

  return useMemo(
    () => ({
      onTimeChange: (time, duration) => saver.update(time, duration),
      onPause: () => saver.flush(),
      onEnded: () => saver.ended(),
    }),
    [saver],
  );
}

/** The saved position of a video, following saves made in this tab (for cards and the video page). */
export function useKnownPosition(videoId: string, signedIn: boolean, serverPosition: number | null | undefined): number | null {
  useSyncExternalStore(localPositions.subscribe, localPositions.version, localPositions.version);
  useSyncExternalStore(sessionPositions.subscribe, sessionPositions.version, sessionPositions.version);
  return knownPosition(videoId, signedIn, serverPosition);
}

/**
 * This tab's remembered places belong to whoever was signed in when they were saved: signing out,
 * or in as someone else, forgets them, so the next account never resumes at another's place.
 */
export function useForgetPositionsOnAccountChange(userId: string | null): void {
  const owner = useRef(userId);
  useEffect(() => {
    if (owner.current === userId) return;
    owner.current = userId;
    sessionPositions.clear();
  }, [userId]);
}
