import { isBrowserPlayable, type ProbeResult } from './probe.js';

/**
 * Decisions about what to encode, made from a probe alone: plain functions, tested on their own.
 * Sizes are "p" sizes of the short side, so a portrait 720x1280 source is 720p like a landscape
 * 1280x720 one.
 */
export interface Rung {
  /** Directory and variant name, e.g. "720p". */
  name: string;
  width: number;
  height: number;
  /** Video bits per second. */
  videoBitrate: number;
}

export interface LadderPlan {
  rungs: Rung[];
  fps: number;
  /** Frames between keyframes: two seconds, so 4 s segments always start on one. */
  gop: number;
  hasAudio: boolean;
  audioSampleRate: number;
  /** Bits per second of the one AAC stereo track every rung carries, or 0 without audio. */
  audioBitrate: number;
  /**
   * Index of the rung that is the source itself (its video copied, cut at its own keyframes), or
   * null when every rung is encoded.
   */
  passthrough: number | null;
  /** With a passthrough rung: the source's keyframe times, where every other rung forces its keyframes. */
  keyframes: number[] | null;
}

/** Short side -> video bitrate, roughly what common streaming sites use for H.264 at 30 fps. */
export const LADDER: ReadonlyArray<{ p: number; videoBitrate: number }> = [
  { p: 240, videoBitrate: 400_000 },
  { p: 360, videoBitrate: 800_000 },
  { p: 480, videoBitrate: 1_400_000 },
  { p: 720, videoBitrate: 2_800_000 },
  { p: 1080, videoBitrate: 5_000_000 },
];

/**
 * The ladder's audio: encoded once and copied into every rung (one AAC encode instead of one per
 * rung), so every rung carries the same track at this bitrate.
 */
export const LADDER_AUDIO_BITRATE = 128_000;

export const SEGMENT_SECONDS = 4;
export const KEYFRAME_SECONDS = 2;
/** Output bitrates stay below the source's times this: re-encoding never adds quality. */
export const SOURCE_BITRATE_HEADROOM = 1.1;

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** The frame rate to encode at: the source's, sane-defaulted, and at most 60. */
export function outputFps(p: ProbeResult): number {
  const fps = p.video?.fps ?? 0;
  if (!fps || !Number.isFinite(fps) || fps < 1) return 30;
  return Math.min(60, fps);
}

/** Width and height (even numbers) whose short side is `shortSide`, keeping the source's shape. */
export function sizeForShortSide(srcWidth: number, srcHeight: number, shortSide: number): { width: number; height: number } {
  if (srcWidth >= srcHeight) return { width: even((srcWidth * shortSide) / srcHeight), height: even(shortSide) };
  return { width: even(shortSide), height: even((srcHeight * shortSide) / srcWidth) };
}

/** Video bitrate of the source, from the stream or, failing that, the container minus audio. */
export function sourceVideoBitrate(p: ProbeResult): number | null {
  if (p.video?.bitRate) return p.video.bitRate;
  if (p.bitRate) return Math.max(0, p.bitRate - (p.audio?.bitRate ?? 0)) || null;
  return null;
}

/** A source's video is copied into its rung only up to this multiple of the rung's bitrate. */
export const PASSTHROUGH_BITRATE_HEADROOM = 2;
/** Longest gap between source keyframes a passthrough rung accepts: segments are cut only there. */
export const PASSTHROUGH_MAX_KEYFRAME_GAP = 8;

/**
 * Which rung, if any, can be the source itself: browsers play it as it is (H.264 8-bit 4:2:0, in
 * MP4), it is not rotated (players ignore an fMP4 track's rotation), its size is exactly the rung's,
 * its bitrate within the rung's headroom, and keyframes come often enough to cut segments.
 */
export function passthroughRung(p: ProbeResult, rungs: Rung[], keyframes: number[] | null): number | null {
  if (!keyframes || keyframes.length === 0 || !p.video || !isBrowserPlayable(p) || p.video.rotation !== 0) return null;
  if (!(p.video.fps > 0) || p.video.fps > 60) return null;
  const i = rungs.findIndex((r) => r.width === p.video!.width && r.height === p.video!.height);
  if (i < 0) return null;
  const bitrate = sourceVideoBitrate(p);
  if (bitrate === null || bitrate > rungs[i]!.videoBitrate * PASSTHROUGH_BITRATE_HEADROOM) return null;
  const ends = [...keyframes, p.duration];
  for (let k = 1; k < ends.length; k++) if (ends[k]! - ends[k - 1]! > PASSTHROUGH_MAX_KEYFRAME_GAP) return null;
  return i;
}

/**
 * The ladder of a source: the chosen rungs (`rungs`, heights; all of LADDER by default) up to the
 * source's size, never upscaled.
 */
export function planLadder(p: ProbeResult, opts: { keyframes?: number[] | null; rungs?: readonly number[] } = {}): LadderPlan {
  if (!p.video) throw new Error('planLadder needs a video stream');
  const { width, height } = p.video;
  const short = Math.min(width, height);
  const hasAudio = p.audio !== null;
  const srcBitrate = sourceVideoBitrate(p);
  const cap = srcBitrate ? Math.round(srcBitrate * SOURCE_BITRATE_HEADROOM) : Infinity;

  const chosen = opts.rungs?.length ? LADDER.filter((s) => opts.rungs!.includes(s.p)) : LADDER;
  const table = chosen.length ? chosen : LADDER;
  let steps = table.filter((s) => s.p <= short);
  // A source smaller than the lowest chosen rung still gets one rung, at its own size.
  if (steps.length === 0) steps = [{ ...table[0]!, p: even(short) }];

  const rungs = steps.map((s) => {
    const size = sizeForShortSide(width, height, s.p);
    return {
      name: `${s.p}p`,
      ...size,
      videoBitrate: Math.min(s.videoBitrate, cap),
    };
  });
  const fps = outputFps(p);
  const passthrough = passthroughRung(p, rungs, opts.keyframes ?? null);
  if (passthrough !== null) {
    // The copied rung's bitrate is the source's, whatever the table says.
    rungs[passthrough] = { ...rungs[passthrough]!, videoBitrate: sourceVideoBitrate(p)! };
  }
  return {
    rungs,
    fps,
    gop: Math.max(1, Math.round(fps * KEYFRAME_SECONDS)),
    hasAudio,
    audioSampleRate: p.audio && [44_100, 48_000].includes(p.audio.sampleRate) ? p.audio.sampleRate : 48_000,
    audioBitrate: hasAudio ? LADDER_AUDIO_BITRATE : 0,
    passthrough,
    keyframes: passthrough === null ? null : opts.keyframes!,
  };
}

/** Size of a playable transcode: short side at most maxShortSide, never above the source. */
export function playableSize(p: ProbeResult, maxShortSide = 720): { width: number; height: number } {
  if (!p.video) throw new Error('playableSize needs a video stream');
  const { width, height } = p.video;
  return sizeForShortSide(width, height, Math.min(maxShortSide, Math.min(width, height)));
}

export interface StoryboardPlan {
  /** Seconds between tiles. */
  interval: number;
  tileWidth: number;
  tileHeight: number;
  columns: number;
  rows: number;
  /** Number of tiles the index will list. */
  tiles: number;
  /** Number of sprite sheets. */
  sheets: number;
}

export const STORYBOARD_MAX_TILES = 100;

/** One tile per `interval` seconds with at most ~100 tiles; tiles fit a 160x90 (or 90x160) box. */
export function planStoryboard(p: ProbeResult, opts: { maxTiles?: number; columns?: number; rows?: number } = {}): StoryboardPlan {
  if (!p.video) throw new Error('planStoryboard needs a video stream');
  const maxTiles = opts.maxTiles ?? STORYBOARD_MAX_TILES;
  const duration = Math.max(p.duration, 0.1);
  const interval = Math.max(1, Math.ceil(duration / maxTiles));
  const tiles = Math.max(1, Math.ceil(duration / interval));
  // A short video gets a sheet just big enough: the tile filter pads a sheet to its full grid.
  const columns = Math.min(opts.columns ?? 10, tiles);
  const rows = Math.min(opts.rows ?? 10, Math.ceil(tiles / columns));
  const { width, height } = p.video;
  const tile = width >= height ? { tileWidth: 160, tileHeight: even((160 * height) / width) } : { tileWidth: even((160 * width) / height), tileHeight: 160 };
  return { interval, ...tile, columns, rows, tiles, sheets: Math.ceil(tiles / (columns * rows)) };
}
