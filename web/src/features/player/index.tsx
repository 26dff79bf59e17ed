// The video page loads this module lazily (`lazy(() => import('@/features/player'))`): everything
// here, vidstack and its styles included, stays in the player's own chunk. Import the pure helpers
// from their files, not from here, if they are ever needed outside the player.
export { VideoPlayer, VideoPlayer as default } from './video-player';
export type { VideoPlayerProps } from './types';
export { shouldCountView, WatchTimeTracker, VIEW_MIN_WATCHED_FRACTION, VIEW_MIN_WATCHED_SECONDS } from './watch-time';
export { keyToAction, planAction, shouldHandleKey, describeCommand } from './keyboard';
export type { PlayerAction, PlayerCommand, PlayerSnapshot, KeyLike } from './keyboard';
export { SPEED_STEPS, FRAME_SECONDS, stepSpeed, frameStep, clampTime, clampVolume } from './playback';
export { pickSource, absoluteUrl } from './source';
export type { PlayerSource } from './source';
export { useViewCounter } from './use-view-counter';
export type { ViewCounter, ViewCounterOptions } from './use-view-counter';
export { createVolumeStorage, VOLUME_STORAGE_KEY } from './volume-storage';
