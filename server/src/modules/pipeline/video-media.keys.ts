import { videoPrefix } from '../../storage/storage.js';

/**
 * Where each job writes, under the video's own prefix. Each job owns one key or one sub-prefix, so
 * it can wipe its own half-written output before a retry without touching the others'.
 */
export function videoMediaKeys(videoId: string) {
  const root = videoPrefix(videoId);
  return {
    root,
    /** Where the upload route stores the original (the row's source_key names it while it is kept). */
    source: `${root}source.mp4`,
    /** Fast-start (or transcoded) progressive mp4. */
    playable: `${root}play.mp4`,
    /** The live rendition of a source browsers cannot play, until the ladder replaces it. */
    livePrefix: `${root}live/`,
    livePlaylist: `${root}live/index.m3u8`,
    hlsPrefix: `${root}hls/`,
    hlsMaster: `${root}hls/master.m3u8`,
    storyboardPrefix: `${root}storyboard/`,
    storyboardVtt: `${root}storyboard/storyboard.vtt`,
  };
}

/** The row's HLS key names the live rendition, not the finished ladder. */
export const isLiveKey = (key: string | null): boolean => key !== null && key.endsWith('/live/index.m3u8');
