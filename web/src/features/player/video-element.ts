import { isHLSProvider, isVideoProvider, type MediaPlayerInstance } from '@vidstack/react';

/** The <video> element behind vidstack's provider, once there is one. */
export function videoElement(player: MediaPlayerInstance | null): HTMLVideoElement | null {
  const provider = player?.provider;
  return isVideoProvider(provider) || isHLSProvider(provider) ? provider.video : null;
}
