import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { makeClip } from '../../src/media/fixtures.js';

/**
 * Test media, made at test time with ffmpeg and sharp and cached per process:
 * image.png, image.jpg, image.webp, image.gif, garbage.png, clip.mp4 (2 s 320x240 H.264/AAC),
 * clip.mkv (same, Matroska), not-video.mp4 (text), bomb.png (a valid 30000x30000 PNG of ~110 KB that
 * would take 900 megapixels to decode), captions.srt and captions.vtt (two cues within the first 2 s,
 * the second one spoken only there: "pterodactyl"). Any other name is taken as a path.
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
    case 'image.png':
      await img().png().toFile(out);
      break;
    case 'image.jpg':
      await img().jpeg().toFile(out);
      break;
    case 'image.webp':
      await img().webp().toFile(out);
      break;
    case 'image.gif':
      await img().gif().toFile(out);
      break;
    case 'garbage.png':
      await fs.writeFile(out, Buffer.from('this is not an image at all'));
      break;
    case 'bomb.png':
      await fs.writeFile(out, pngBomb(30000, 30000));
      break;
    case 'not-video.mp4':
      await fs.writeFile(out, Buffer.from('plain text pretending to be a video'));
      break;
    case 'captions.srt':
      await fs.writeFile(out, CAPTIONS_SRT);
      break;
    case 'captions.vtt':
      await fs.writeFile(
        out,
        CAPTIONS_SRT.replace(/^\d+\n/gm, '')
          .replace(/,(\d{3})/g, '.$1')
          .replace(/^/, 'WEBVTT\n\n'),
      );
      break;
    case 'clip.mp4':
      await makeClip(ffmpeg, out, { width: 320, height: 240, seconds: 2 });
      break;
    case 'clip.mkv':
      await makeClip(ffmpeg, out, { width: 320, height: 240, seconds: 2, format: 'matroska' });
      break;
    default:
      throw new Error(`unknown fixture ${name}`);
  }
  return out;
}

const CAPTIONS_SRT = '1\n00:00:00,200 --> 00:00:01,000\nHello <i>there</i>\n\n2\n00:00:01,000 --> 00:00:01,900\nA pterodactyl lands\n';

/** A black 1-bit greyscale PNG of the given size: tiny on disk, huge once decoded. */
function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(1, 8); // bit depth
  ihdr.writeUInt8(0, 9); // greyscale
  // Each row: filter byte 0, then width bits, all zero.
  const raw = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
