// The video page loads this module lazily (`lazy(() => import('@/features/player'))`): everything
// here, vidstack and its styles included, stays in the player's own chunk. Import the pure helpers
// from their files, not from here, if they are ever needed outside the player.
export { VideoPlayer as default } from './video-player';
