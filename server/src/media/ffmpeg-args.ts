import type { LadderPlan, StoryboardPlan } from './video-plan.js';
import { SEGMENT_SECONDS } from './video-plan.js';

/**
 * ffmpeg argument arrays, one plain function per operation. Every command reads progress from
 * stdout (`-progress pipe:1`) and writes nothing interactive (`-nostdin`).
 */
const COMMON = ['-hide_banner', '-nostdin', '-y', '-loglevel', 'error', '-progress', 'pipe:1', '-nostats'];

/**
 * Fast start: the source's own H.264/AAC streams, copied (no re-encode) into an mp4 whose index
 * (moov) comes first, so a browser can start playing before it has the whole file. Container
 * metadata (phone location, device names) is dropped; the display rotation is stream side data and
 * is kept.
 */
export function fastStartArgs(input: string, output: string): string[] {
  return [
    ...COMMON,
    '-i',
    input,
    '-map',
    '0:v:0',
    '-map',
    '0:a:0?',
    '-c',
    'copy',
    '-map_metadata',
    '-1',
    '-map_chapters',
    '-1',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    output,
  ];
}

export interface PlayableEncode {
  width: number;
  height: number;
  fps: number;
  gop: number;
  hasAudio: boolean;
  /** Upper bound for the video bitrate (bits per second). */
  maxVideoBitrate: number;
}

export interface LiveEncode extends PlayableEncode {
  /** Live playlist, its init segment and segments go here (relative to the working directory). */
  liveDir: string;
  /** The same encode, kept as a fast-start mp4 (relative to the working directory). */
  mp4: string;
}

/** Seconds of the first live segment: short, so a player has something within a second or two. */
export const LIVE_FIRST_SEGMENT_SECONDS = 1;
export const LIVE_SEGMENT_SECONDS = 2;

/**
 * A live-style rendition of a source browsers cannot play: one quick encode (x264 `veryfast`)
 * written both as a growing HLS EVENT playlist (fMP4, a 1 s first segment, then 2 s ones) and as
 * a fast-start mp4 of the same frames (`tee`: encoded once). Keyframes are forced at 0, 1, 3, 5...
 * so every segment starts on one. Paths are relative: ffmpeg runs in the job's directory, so the
 * tee specification needs no escaping.
 */
export function liveRenditionArgs(input: string, e: LiveEncode): string[] {
  const args = [...COMMON, '-i', input, '-map', '0:v:0'];
  if (e.hasAudio) args.push('-map', '0:a:0');
  const first = LIVE_FIRST_SEGMENT_SECONDS;
  const every = LIVE_SEGMENT_SECONDS;
  args.push(
    '-vf',
    `scale=${e.width}:${e.height}:flags=bicubic,format=yuv420p`,
    '-r',
    fpsArg(e.fps),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-profile:v',
    'high',
    '-crf',
    '23',
    '-maxrate',
    String(e.maxVideoBitrate),
    '-bufsize',
    String(e.maxVideoBitrate * 2),
    // Only forced keyframes: at 0, then `first`, then every `every` seconds after it.
    '-g',
    String(e.gop * 10),
    '-sc_threshold',
    '0',
    '-force_key_frames',
    `expr:if(eq(n_forced,0),1,gte(t,${first}+(n_forced-1)*${every}))`,
  );
  if (e.hasAudio) args.push('-c:a', 'aac', '-b:a', '128k', '-ac', '2');
  const hls = [
    'f=hls',
    `hls_time=${every}`,
    `hls_init_time=${first}`,
    'hls_playlist_type=event',
    'hls_segment_type=fmp4',
    'hls_fmp4_init_filename=init.mp4',
    `hls_segment_filename=${e.liveDir}/seg-%05d.m4s`,
    'hls_flags=independent_segments+temp_file',
  ].join(':');
  args.push('-map_metadata', '-1', '-map_chapters', '-1', '-f', 'tee', `[${hls}]${e.liveDir}/index.m3u8|[f=mp4:movflags=+faststart]${e.mp4}`);
  return args;
}

/**
 * The ladder's audio, encoded once for every rung: AAC-LC stereo at the plan's bitrate, in an mp4
 * that `ladderArgs` copies from. Gaps and a late start are filled with silence (`aresample`
 * `async=1:first_pts=0`, what `-async 1` did), so the track starts where the source's timeline does
 * and stays in sync with the video read from the source itself.
 */
export function ladderAudioArgs(input: string, plan: LadderPlan, output: string): string[] {
  return [
    ...COMMON,
    '-i',
    input,
    '-map',
    '0:a:0',
    '-vn',
    '-sn',
    '-dn',
    '-af',
    'aresample=async=1:first_pts=0',
    '-c:a',
    'aac',
    '-ac',
    '2',
    '-ar',
    String(plan.audioSampleRate),
    '-b:a',
    String(plan.audioBitrate),
    '-map_metadata',
    '-1',
    '-map_chapters',
    '-1',
    '-f',
    'mp4',
    output,
  ];
}

export interface LadderOutput {
  /** Directory that receives `<rung>/index.m3u8`, `<rung>/init.mp4`, `<rung>/seg-NNNNN.m4s`. */
  outDir: string;
  /** Name of the master playlist ffmpeg writes; the pipeline rewrites it with measured figures. */
  masterName?: string;
  /** x264 preset; veryfast balances speed and size on small machines. */
  preset?: string;
  /** The ladder's audio track, made beforehand by `ladderAudioArgs`; needed when the plan has audio. */
  audio?: string;
}

/** Frame rates like 29.97 are passed as exact fractions so timestamps do not drift. */
export function fpsArg(fps: number): string {
  for (const base of [24, 30, 60]) {
    if (Math.abs(fps - (base * 1000) / 1001) < 0.01) return `${base * 1000}/1001`;
  }
  return Number.isInteger(fps) ? String(fps) : fps.toFixed(3);
}

/**
 * The whole HLS ladder in one ffmpeg process: the source is decoded once, the largest encoded rung
 * is scaled from it and every smaller rung from the rung above (`scaleCascade`), and the HLS muxer
 * writes every variant (fMP4 segments of ~4 s, cut at keyframes that sit at the same times in every
 * rung, so a player can switch at any boundary).
 *
 * Without a passthrough rung, keyframes come every 2 s at fixed positions. With one, that rung is
 * the source's own video, copied, and every encoded rung forces its keyframes at the source's
 * keyframe times (only there: `-g` is long and scene cuts are off), so all rungs cut alike.
 *
 * Audio is not encoded here: the track `ladderAudioArgs` made once is the second input, copied into
 * every rung.
 */
export function ladderArgs(input: string, plan: LadderPlan, out: LadderOutput): string[] {
  if (plan.hasAudio && !out.audio) throw new Error('ladderArgs needs the encoded audio track of a source with audio');
  const copied = plan.passthrough;
  const encoded = plan.rungs.map((_, i) => i).filter((i) => i !== copied);
  const args = [...COMMON, '-i', input];
  if (plan.hasAudio) args.push('-i', out.audio!);
  if (encoded.length > 0) {
    // A passthrough ladder keeps the source's frames as they are, so keyframes land on the same ones.
    const head = copied === null ? `fps=${fpsArg(plan.fps)},` : '';
    args.push('-filter_complex', scaleCascade(plan, encoded, head));
  }
  plan.rungs.forEach((_, i) => {
    args.push('-map', i === copied ? '0:v:0' : `[v${i}]`);
    if (plan.hasAudio) args.push('-map', '1:a:0');
  });
  const keyframes = copied === null ? null : (plan.keyframes ?? []).map((t) => t.toFixed(6)).join(',');
  plan.rungs.forEach((r, i) => {
    if (i === copied) {
      args.push(`-c:v:${i}`, 'copy');
      return;
    }
    args.push(`-c:v:${i}`, 'libx264', `-preset:v:${i}`, out.preset ?? 'veryfast', `-profile:v:${i}`, 'high');
    args.push(`-b:v:${i}`, String(r.videoBitrate), `-maxrate:v:${i}`, String(Math.round(r.videoBitrate * 1.1)), `-bufsize:v:${i}`, String(r.videoBitrate * 2));
    if (keyframes === null) {
      args.push(`-g:v:${i}`, String(plan.gop), `-keyint_min:v:${i}`, String(plan.gop), `-sc_threshold:v:${i}`, '0');
    } else {
      args.push(`-g:v:${i}`, String(plan.gop * 50), `-sc_threshold:v:${i}`, '0', `-force_key_frames:v:${i}`, keyframes);
    }
  });
  if (plan.hasAudio) args.push('-c:a', 'copy');
  const streamMap = plan.rungs.map((r, i) => (plan.hasAudio ? `v:${i},a:${i},name:${r.name}` : `v:${i},name:${r.name}`)).join(' ');
  args.push(
    '-map_metadata',
    '-1',
    '-f',
    'hls',
    '-hls_time',
    String(SEGMENT_SECONDS),
    '-hls_playlist_type',
    'vod',
    '-hls_segment_type',
    'fmp4',
    '-hls_flags',
    'independent_segments',
    '-hls_fmp4_init_filename',
    'init.mp4',
    '-hls_segment_filename',
    `${out.outDir}/%v/seg-%05d.m4s`,
    '-master_pl_name',
    out.masterName ?? 'ffmpeg-master.m3u8',
    '-var_stream_map',
    streamMap,
    `${out.outDir}/%v/index.m3u8`,
  );
  return args;
}

/**
 * The ladder's filter graph: the largest encoded rung is scaled from the decoded source, and each
 * smaller rung from the one above it (1080p -> 720p -> 480p -> 360p -> 240p), its output split
 * between its encoder (`[v<i>]`) and the next scaler. Only one scaler reads full-size frames, which
 * costs far less than every rung scaling the source. Sizes are exact, so each step keeps the
 * picture's shape and the sample aspect ratio comes out as if scaled from the source in one go.
 */
export function scaleCascade(plan: LadderPlan, encoded: number[], head = ''): string {
  const bySize = [...encoded].sort((a, b) => plan.rungs[b]!.width * plan.rungs[b]!.height - plan.rungs[a]!.width * plan.rungs[a]!.height);
  let from = `[0:v:0]${head}`;
  const chains = bySize.map((i, k) => {
    const r = plan.rungs[i]!;
    const scaled = `${from}scale=${r.width}:${r.height}:flags=bicubic,format=yuv420p`;
    if (k === bySize.length - 1) return `${scaled}[v${i}]`;
    from = `[c${i}]`;
    return `${scaled},split=2[v${i}][c${i}]`;
  });
  return chains.join(';');
}

/**
 * Seek-preview sprite sheets: one frame every `interval` seconds, scaled to the tile size and
 * laid out `columns x rows` per JPEG. Numbered from 0 (`sprite-0.jpg`).
 */
export function storyboardArgs(input: string, plan: StoryboardPlan, outPattern: string): string[] {
  const vf = `fps=1/${plan.interval},scale=${plan.tileWidth}:${plan.tileHeight}:flags=bilinear,tile=${plan.columns}x${plan.rows}`;
  return [...COMMON, '-i', input, '-map', '0:v:0', '-an', '-sn', '-vf', vf, '-q:v', '5', '-start_number', '0', '-f', 'image2', outPattern];
}
