// hls.js ships no declarations for its `light` entry; it is the same API without subtitles,
// alternate audio, DRM and CMCD.
declare module 'hls.js/light' {
  export * from 'hls.js';
  export { default } from 'hls.js';
}
