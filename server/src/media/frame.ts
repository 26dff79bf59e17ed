import fs from 'node:fs/promises';
import { MediaError } from './media-error.js';
import type { MediaTools } from './media-tools.js';

/** A single frame needs one seek and one decode: a generous limit still stops a stuck ffmpeg. */
const FRAME_TIME_LIMIT_MS = 60_000;

/**
 * Writes the frame shown at `seconds` of a video as a PNG (the input seek lands on the keyframe
 * before it, then decodes up to the exact time). A time past the last frame yields no picture,
 * which is reported as unreadable rather than as an empty file.
 */
export async function grabFrame(input: string, seconds: number, output: string, opts: { tools: MediaTools; signal?: AbortSignal }): Promise<void> {
  await fs.rm(output, { force: true });
  await opts.tools.ffmpeg(
    [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-ss',
      seconds.toFixed(3),
      '-i',
      input,
      '-map',
      '0:v:0',
      '-frames:v',
      '1',
      '-an',
      '-sn',
      '-dn',
      '-f',
      'image2',
      '-c:v',
      'png',
      '-y',
      output,
    ],
    { signal: opts.signal, timeoutMs: FRAME_TIME_LIMIT_MS },
  );
  const written = await fs.stat(output).catch(() => null);
  if (!written || written.size === 0) throw new MediaError('unreadable', `The video has no frame at ${seconds} s`);
}
