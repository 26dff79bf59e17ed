import fs from 'node:fs/promises';
import path from 'node:path';
import { badRequest, conflict, unprocessable } from '../../http/errors.js';
import { grabFrame } from '../../media/frame.js';
import { processImage } from '../../media/image.js';
import { MediaError } from '../../media/media-error.js';
import type { MediaTools } from '../../media/media-tools.js';
import { newId } from '../../lib/ids.js';
import { ownerTag } from '../../lib/process-owner.js';
import type { Storage } from '../../storage/storage.js';
import type { VideoRow } from './videos.repository.js';

export interface FrameThumbnailDeps {
  storage: Storage;
  media: MediaTools;
  /** Scratch space for a downloaded video and the frame. */
  tmpDir: string;
}

type ImageSize = { width: number; height: number; fit: 'inside' };

/** Refuses (400) a time past the end of a video `duration` seconds long, before any work is done. */
export function assertWithin(seconds: number, duration: number): void {
  if (seconds > duration) {
    const max = Math.floor(duration * 10) / 10;
    throw badRequest(`thumbnailTime must be within the video's length (0 to ${max} s)`, [
      { path: 'thumbnailTime', message: `thumbnailTime must be at most ${max}` },
    ]);
  }
}

/**
 * A thumbnail cut from a frame of the video itself: the progressive file once processing made it,
 * else the stored upload. On local disk ffmpeg reads the file in place; from object storage it is
 * fetched first. Returns the WebP thumbnail, sized like an uploaded one.
 */
export async function thumbnailFromFrame(
  row: Pick<VideoRow, 'id' | 'video_key' | 'source_key' | 'duration'>,
  seconds: number,
  deps: FrameThumbnailDeps,
  image: ImageSize,
): Promise<Buffer> {
  const duration = Number(row.duration);
  assertWithin(seconds, duration);
  const key = row.video_key ?? row.source_key;
  if (!key) throw conflict('This video has no stored file to cut a frame from yet');
  return withScratch(deps.tmpDir, async (scratch) => {
    let input = deps.storage.localPath(key);
    if (!input) {
      input = path.join(scratch, `video-${newId()}.mp4`);
      await deps.storage.download(key, input);
    }
    return cut(input, seconds, duration, scratch, deps.media, image);
  });
}

/**
 * The same thumbnail cut from a video file on this machine that is not stored yet (an upload being
 * turned into a video), so a refusal leaves nothing in storage. `duration` is the probe's.
 */
export async function thumbnailFromFile(
  file: string,
  seconds: number,
  duration: number,
  deps: Pick<FrameThumbnailDeps, 'media' | 'tmpDir'>,
  image: ImageSize,
): Promise<Buffer> {
  assertWithin(seconds, duration);
  return withScratch(deps.tmpDir, (scratch) => cut(file, seconds, duration, scratch, deps.media, image));
}

/** Named after this process, so that what a process killed mid-cut leaves is swept as soon as it is gone. */
async function withScratch<T>(tmpDir: string, work: (scratch: string) => Promise<T>): Promise<T> {
  await fs.mkdir(tmpDir, { recursive: true });
  const scratch = await fs.mkdtemp(path.join(tmpDir, `frame-${ownerTag()}-`));
  try {
    return await work(scratch);
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

async function cut(input: string, seconds: number, duration: number, scratch: string, tools: MediaTools, image: ImageSize): Promise<Buffer> {
  const png = path.join(scratch, 'frame.png');
  // The last frame may start a little before the stated duration: a time at the very end takes it.
  const at = Math.max(0, Math.min(seconds, duration - 0.05));
  try {
    await grabFrame(input, at, png, { tools });
  } catch (err) {
    if (err instanceof MediaError) throw unprocessable(`No frame could be cut at ${seconds} s of this video`);
    throw err;
  }
  return processImage(png, { ...image, maxInputPixels: 40_000_000 });
}
