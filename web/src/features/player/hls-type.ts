import { HLSProviderLoader } from '@vidstack/react';

/** The HLS type every browser that plays HLS natively recognises. */
export const HLS_TYPE = 'application/x-mpegurl' as const;

/**
 * A type no browser plays by itself, given to the ladder where hls.js plays it. The URL still ends
 * in .m3u8, which is how the player knows it for HLS and hands it to hls.js.
 */
export const HLS_JS_ONLY_TYPE = 'application/x-reelhouse-hls';

export interface HlsPlayback {
  /** hls.js will play the ladder (the browser has Media Source Extensions for H.264/AAC). */
  hlsJs: boolean;
  /** The browser can send the video to an AirPlay receiver, which needs the plain HLS source. */
  airPlay: boolean;
}

/**
 * The type to give the ladder's master playlist.
 *
 * The player renders the source as a <source> element while hls.js (a chunk of its own) is still
 * arriving. A browser that plays HLS natively (Chromium now does, as Safari always has) starts a
 * pipeline of its own from it; hls.js then replaces it with its MediaSource and what the native
 * pipeline did is thrown away: an autoplay (the next video of a playlist, up next) ends paused at
 * 0, a viewer's early play is lost, and the first segments are downloaded twice. Where hls.js will
 * play the ladder, a type the browser does not know keeps its own pipeline from starting. Safari
 * keeps the plain type: AirPlay hands the <source> to the receiver.
 */
export function hlsSourceType({ hlsJs, airPlay }: HlsPlayback): string {
  return hlsJs && !airPlay ? HLS_JS_ONLY_TYPE : HLS_TYPE;
}

/**
 * The ladder's type in this browser: vidstack's own test for hls.js, and Safari's AirPlay. Typed as
 * the standard type because vidstack's types list only those; it knows the ladder by its address.
 */
export function hlsTypeForThisBrowser(): typeof HLS_TYPE {
  const airPlay = 'WebKitPlaybackTargetAvailabilityEvent' in window;
  return hlsSourceType({ hlsJs: HLSProviderLoader.supported, airPlay }) as typeof HLS_TYPE;
}
