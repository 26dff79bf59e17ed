import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from './run-process.js';
import { processImage } from './image.js';

let dir: string;
const ffmpegPath = process.env.FFMPEG_PATH ?? 'ffmpeg';

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'image-test-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const gradient = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: { r: 200, g: 40, b: 90 } } });

describe('processImage', () => {
  it('turns a JPEG into a WebP of the cover size', async () => {
    const file = path.join(dir, 'a.jpg');
    await gradient(800, 600).jpeg().toFile(file);
    const out = await processImage(file, { width: 320, height: 180, fit: 'cover' });
    const meta = await sharp(out).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 320, height: 180 });
  });

  it('fits inside without enlarging a small PNG', async () => {
    const file = path.join(dir, 'small.png');
    await gradient(100, 50).png().toFile(file);
    const out = await processImage(file, { width: 400, height: 400, fit: 'inside' });
    expect(await sharp(out).metadata()).toMatchObject({ format: 'webp', width: 100, height: 50 });
    const big = path.join(dir, 'big.webp');
    await gradient(1000, 500).webp().toFile(big);
    expect(await sharp(await processImage(big, { width: 400, height: 400, fit: 'inside' })).metadata()).toMatchObject({ width: 400, height: 200 });
  });

  it('turns an EXIF-rotated JPEG upright and strips EXIF and GPS', async () => {
    const file = path.join(dir, 'rotated.jpg');
    // Stored 200x100 with orientation 6 (rotate 90 clockwise): displayed 100x200.
    await gradient(200, 100)
      .jpeg()
      .withExif({ IFD0: { Make: 'TestCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .withMetadata({ orientation: 6 })
      .toFile(file);
    const inMeta = await sharp(file).metadata();
    expect(inMeta.orientation).toBe(6);
    expect(inMeta.exif).toBeDefined();
    const out = await processImage(file, { width: 1000, height: 1000, fit: 'inside' });
    const meta = await sharp(out).metadata();
    expect(meta).toMatchObject({ width: 100, height: 200 });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(out.includes(Buffer.from('TestCam'))).toBe(false);
  });

  it('rejects GIF, TIFF and SVG as unsupported, judged by content not name', async () => {
    const gif = path.join(dir, 'looks-like.png');
    await runProcess(ffmpegPath, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=64x64:duration=0.2', '-f', 'gif', gif]);
    await expect(processImage(gif, { width: 10, height: 10, fit: 'cover' })).rejects.toMatchObject({ kind: 'unsupported' });
    const tiff = path.join(dir, 'a.jpg');
    await gradient(50, 50).tiff().toFile(tiff);
    await expect(processImage(tiff, { width: 10, height: 10, fit: 'cover' })).rejects.toMatchObject({ kind: 'unsupported' });
    const svg = path.join(dir, 'a.svg');
    await fs.writeFile(svg, '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    await expect(processImage(svg, { width: 10, height: 10, fit: 'cover' })).rejects.toMatchObject({ kind: 'unsupported' });
  });

  it('rejects garbage and truncated files as unreadable', async () => {
    const garbage = path.join(dir, 'garbage.jpg');
    await fs.writeFile(garbage, 'not an image at all');
    await expect(processImage(garbage, { width: 10, height: 10, fit: 'cover' })).rejects.toMatchObject({ name: 'MediaError', kind: 'unreadable' });
    const whole = await gradient(400, 400).jpeg().toBuffer();
    const truncated = path.join(dir, 'truncated.jpg');
    await fs.writeFile(truncated, whole.subarray(0, Math.floor(whole.length / 3)));
    await expect(processImage(truncated, { width: 10, height: 10, fit: 'cover' })).rejects.toMatchObject({ kind: 'unreadable' });
  });

  it('refuses images over the pixel limit', async () => {
    const file = path.join(dir, 'large.png');
    await gradient(2000, 2000).png().toFile(file);
    await expect(processImage(file, { width: 10, height: 10, fit: 'cover', maxInputPixels: 1_000_000 })).rejects.toMatchObject({ kind: 'unsupported' });
  });
});
