import fs from 'node:fs/promises';
import { runProcess } from './run-process.js';

/**
 * Synthetic clips made with ffmpeg's test sources, for tests and benchmarks: no binary media is
 * kept in the repository.
 */
export interface ClipSpec {
  width: number;
  height: number;
  seconds: number;
  fps?: number;
  /** libx264 (default), libx265, mpeg4. */
  videoCodec?: 'libx264' | 'libx265' | 'mpeg4';
  pixFmt?: string;
  /** aac (default), mp3, or null for no audio track. */
  audioCodec?: 'aac' | 'libmp3lame' | null;
  /** Output container; default mp4. */
  format?: 'mp4' | 'mov' | 'matroska';
  /** Stamps a display rotation into the container (degrees), by a second copy-only pass. */
  rotate?: number;
  preset?: string;
  videoBitrate?: string;
  /** Frames between keyframes (the encoder's default otherwise). */
  gop?: number;
}

export function clipArgs(spec: ClipSpec, outPath: string): string[] {
  const fps = spec.fps ?? 25;
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${spec.width}x${spec.height}:rate=${fps}:duration=${spec.seconds}`,
  ];
  if (spec.audioCodec !== null) {
    args.push('-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${spec.seconds}`);
  }
  const codec = spec.videoCodec ?? 'libx264';
  args.push('-map', '0:v');
  if (spec.audioCodec !== null) args.push('-map', '1:a', '-ac', '2');
  args.push('-c:v', codec, '-pix_fmt', spec.pixFmt ?? 'yuv420p');
  if (codec === 'libx264' || codec === 'libx265') args.push('-preset', spec.preset ?? 'ultrafast');
  if (codec === 'libx265') args.push('-tag:v', 'hvc1', '-x265-params', 'log-level=error');
  if (spec.videoBitrate) args.push('-b:v', spec.videoBitrate);
  if (spec.gop) args.push('-g', String(spec.gop));
  if (spec.audioCodec !== null) args.push('-c:a', spec.audioCodec ?? 'aac', '-b:a', '128k');
  args.push('-f', spec.format ?? 'mp4', outPath);
  return args;
}

export async function makeClip(ffmpegPath: string, outPath: string, spec: ClipSpec): Promise<string> {
  if (!spec.rotate) {
    await runProcess(ffmpegPath, clipArgs(spec, outPath), { timeoutMs: 300_000 });
    return outPath;
  }
  // ffmpeg 5 drops a rotate tag given while encoding; it keeps one given on a stream copy.
  const tmp = `${outPath}.unrotated.mp4`;
  await runProcess(ffmpegPath, clipArgs({ ...spec, rotate: undefined }, tmp), { timeoutMs: 300_000 });
  await runProcess(
    ffmpegPath,
    ['-hide_banner', '-loglevel', 'error', '-y', '-i', tmp, '-map', '0', '-c', 'copy', '-metadata:s:v:0', `rotate=${spec.rotate}`, outPath],
    { timeoutMs: 60_000 },
  );
  await fs.rm(tmp, { force: true });
  return outPath;
}
