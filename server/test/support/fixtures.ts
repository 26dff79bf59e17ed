import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { makeClip } from '../../src/media/fixtures.js';

/**
 * Test media, made at test time with ffmpeg and sharp and cached per process:
 * image.png, image.jpg, image.webp, image.gif, garbage.png, clip.mp4 (2 s 320x240 H.264/AAC),
 * clip.mkv (same, Matroska), not-video.mp4 (text). Any other name is taken as a path.
 */
const dir = path.join(os.tmpdir(), `reelhouse-fixtures-${process.pid}`);
const made = new Map<string, Promise<string>>();

export function fixtureFile(name: string): Promise<string> {
  if (name.includes('/')) return Promise.resolve(name);
  let p = made.get(name);
  if (!p) {
    p = make(name);
    made.set(name, p);
  }
  return p;
}

async function make(name: string): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const out = path.join(dir, name);
  const ffmpeg = process.env.FFMPEG_PATH ?? 'ffmpeg';
  const img = () => sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 90 } } });
  switch (name) {
    case 'image.png': await img().png().toFile(out); break;
    case 'image.jpg': await img().jpeg().toFile(out); break;
    case 'image.webp': await img().webp().toFile(out); break;
    case 'image.gif': await img().gif().toFile(out); break;
    case 'garbage.png': await fs.writeFile(out, Buffer.from('this is not an image at all')); break;
    case 'not-video.mp4': await fs.writeFile(out, Buffer.from('plain text pretending to be a video')); break;
    case 'clip.mp4': await makeClip(ffmpeg, out, { width: 320, height: 240, seconds: 2 }); break;
    case 'clip.mkv': await makeClip(ffmpeg, out, { width: 320, height: 240, seconds: 2, format: 'matroska' }); break;
    default: throw new Error(`unknown fixture ${name}`);
  }
  return out;
}
