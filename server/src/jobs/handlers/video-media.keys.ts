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
    hlsPrefix: `${root}hls/`,
    hlsMaster: `${root}hls/master.m3u8`,
    storyboardPrefix: `${root}storyboard/`,
    storyboardVtt: `${root}storyboard/storyboard.vtt`,
  };
}
