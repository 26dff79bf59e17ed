import { lazy } from 'react';

// The player (and hls.js under it) is downloaded only when a page with a player opens.
export const VideoPlayer = lazy(() => import('@/features/player'));
