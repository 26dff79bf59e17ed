import fs from 'node:fs/promises';
import path from 'node:path';
import { badRequest, conflict, unprocessable } from '../../http/errors.js';
import { grabFrame } from '../../media/frame.js';
import { processImage } from '../../media/image.js';
import { MediaError } from '../../media/media-error.js';
import { newId } from '../../lib/ids.js';
import type { Storage } from '../../storage/storage.js';
import type { VideoRow } from './videos.repository.js';

export interface FrameThumbnailDeps {
  storage: Storage;
  ffmpegPath: string;
  /** Scratch space for a downloaded video and the frame. */
  tmpDir: string;
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
  image: { width: number; height: number; fit: 'inside' },
): Promise<Buffer> {
  const duration = Number(row.duration);
  if (seconds > duration) {
    throw badRequest(`thumbnailTime must be within the video's length (0 to ${Math.floor(duration * 10) / 10} s)`, [
      { path: 'thumbnailTime', message: `thumbnailTime must be at most ${Math.floor(duration * 10) / 10}` },
    ]);
  }
  const key = row.video_key ?? row.source_key;
  if (!key) throw conflict('This video has no stored file to cut a frame from yet');
  await fs.mkdir(deps.tmpDir, { recursive: true });
  const scratch = await fs.mkdtemp(path.join(deps.tmpDir, `frame-${row.id}-`));
  try {
    let input = deps.storage.localPath(key);
    if (!input) {
      input = path.join(scratch, `video-${newId()}.mp4`);
      await deps.storage.download(key, input);
    }
    const png = path.join(scratch, 'frame.png');
    // The last frame may start a little before the stated duration: a time at the very end takes it.
    const at = Math.max(0, Math.min(seconds, duration - 0.05));
    try {
      await grabFrame(input, at, png, { ffmpegPath: deps.ffmpegPath });
    } catch (err) {
      if (err instanceof MediaError) throw unprocessable(`No frame could be cut at ${seconds} s of this video`);
      throw err;
    }
    return await processImage(png, { ...image, maxInputPixels: 40_000_000 });
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}
