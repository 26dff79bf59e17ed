export type PlayerSource = { kind: 'hls'; src: string; type: 'application/x-mpegurl' } | { kind: 'mp4'; src: string; type: 'video/mp4' };

/**
 * The source to play: the HLS master playlist once the ladder exists, else the progressive file.
 * When the ladder appears while the progressive file is already playing, keep playing it: it is
 * the same video at source quality, and switching would rebuffer and reset the position mid-watch.
 * The ladder is then picked up on the next mount (or if nothing has been played yet).
 */
export function pickSource(src: string, hlsSrc: string | null, current: PlayerSource | null, started: boolean): PlayerSource {
  if (started && current?.kind === 'mp4' && current.src === src) return current;
  if (hlsSrc) return current?.kind === 'hls' && current.src === hlsSrc ? current : { kind: 'hls', src: hlsSrc, type: 'application/x-mpegurl' };
  return current?.kind === 'mp4' && current.src === src ? current : { kind: 'mp4', src, type: 'video/mp4' };
}

/**
 * An absolute URL for `url` against `base` (the page). The storyboard must be absolute: vidstack
 * resolves the sprite sheet names inside the .vtt against the .vtt's own URL only when that URL
 * is absolute, and against the page otherwise.
 */
export function absoluteUrl(url: string, base: string): string {
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}
