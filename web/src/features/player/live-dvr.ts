import type { MediaPlayerInstance } from '@vidstack/react';

interface LevelUpdated {
  details: { totalduration: number };
}
interface VidstackState {
  duration(): number;
  inferredLiveDVRWindow: { set(v: number): void };
}
interface LiveHls {
  on(event: 'hlsLevelUpdated', listener: (event: string, data: LevelUpdated) => void): void;
  on(event: 'hlsBufferAppended', listener: () => void): void;
}

/**
 * vidstack lets a live be sought only while its duration is at least the playlist's window, which
 * it takes from each playlist refresh; its duration follows the media's a few seconds later, so the
 * seek bar of a growing broadcast would stay off. The window is held to what the duration covers
 * instead (vidstack's internal state: it has no option for this).
 */
export function keepDvrSeekable(hls: LiveHls, player: () => MediaPlayerInstance | null): void {
  let total = 0;
  const apply = () => {
    const instance = player();
    if (!instance || total <= 0) return;
    const state = (instance as unknown as { $state: VidstackState }).$state;
    const duration = state.duration();
    if (Number.isFinite(duration) && duration > 0) state.inferredLiveDVRWindow.set(Math.min(total, duration));
  };
  hls.on('hlsLevelUpdated', (_event, data) => {
    total = data.details.totalduration;
    // After vidstack's own listener of the same event.
    setTimeout(apply, 0);
  });
  hls.on('hlsBufferAppended', apply);
}
