import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from './fixtures.js';
import { MediaError } from './media-error.js';
import { MediaTools } from './media-tools.js';
import { interpretProbe, isBrowserPlayable, probeMedia } from './probe.js';

const ffmpegPath = process.env.FFMPEG_PATH ?? 'ffmpeg';
const ffprobePath = process.env.FFPROBE_PATH ?? 'ffprobe';
const tools = new MediaTools({ ffmpegPath, ffprobePath });
let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'probe-test-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const probe = (file: string) => probeMedia(file, { tools });

describe('probeMedia', () => {
  it('reads an H.264/AAC mp4', async () => {
    const file = await makeClip(ffmpegPath, path.join(dir, 'h264.mp4'), { width: 320, height: 240, seconds: 2, fps: 25 });
    const p = await probe(file);
    expect(p.isMp4).toBe(true);
    expect(p.formatName).toContain('mp4');
    expect(p.duration).toBeGreaterThan(1.9);
    expect(p.duration).toBeLessThan(2.2);
    expect(p.size).toBe((await fs.stat(file)).size);
    expect(p.video).toMatchObject({ codec: 'h264', pixFmt: 'yuv420p', width: 320, height: 240, fps: 25, rotation: 0 });
    expect(p.audio).toMatchObject({ codec: 'aac', channels: 2, sampleRate: 48000 });
    expect(isBrowserPlayable(p)).toBe(true);
  });

  it('reads a clip without audio as playable', async () => {
    const file = await makeClip(ffmpegPath, path.join(dir, 'silent.mp4'), { width: 320, height: 240, seconds: 1, audioCodec: null });
    const p = await probe(file);
    expect(p.audio).toBeNull();
    expect(isBrowserPlayable(p)).toBe(true);
  });

  it('says HEVC, 10-bit H.264, MPEG-4 Part 2 and MP3 audio are not browser-playable', async () => {
    const hevc = await probe(await makeClip(ffmpegPath, path.join(dir, 'hevc.mp4'), { width: 320, height: 240, seconds: 1, videoCodec: 'libx265' }));
    expect(hevc.video?.codec).toBe('hevc');
    expect(hevc.isMp4).toBe(true);
    expect(isBrowserPlayable(hevc)).toBe(false);

    const tenBit = await probe(await makeClip(ffmpegPath, path.join(dir, '10bit.mp4'), { width: 320, height: 240, seconds: 1, pixFmt: 'yuv420p10le' }));
    expect(tenBit.video?.pixFmt).toBe('yuv420p10le');
    expect(isBrowserPlayable(tenBit)).toBe(false);

    const mpeg4 = await probe(await makeClip(ffmpegPath, path.join(dir, 'mpeg4.mp4'), { width: 320, height: 240, seconds: 1, videoCodec: 'mpeg4' }));
    expect(mpeg4.video?.codec).toBe('mpeg4');
    expect(isBrowserPlayable(mpeg4)).toBe(false);

    const mp3 = await probe(await makeClip(ffmpegPath, path.join(dir, 'mp3.mp4'), { width: 320, height: 240, seconds: 1, audioCodec: 'libmp3lame' }));
    expect(mp3.audio?.codec).toBe('mp3');
    expect(isBrowserPlayable(mp3)).toBe(false);
  });

  it('tells a QuickTime .mov and a Matroska file from an mp4', async () => {
    const mov = await probe(await makeClip(ffmpegPath, path.join(dir, 'clip.mov'), { width: 320, height: 240, seconds: 1, format: 'mov' }));
    expect(mov.isMp4).toBe(false);
    expect(isBrowserPlayable(mov)).toBe(false);
    const mkv = await probe(await makeClip(ffmpegPath, path.join(dir, 'clip.mkv'), { width: 320, height: 240, seconds: 1, format: 'matroska' }));
    expect(mkv.isMp4).toBe(false);
    expect(mkv.video?.codec).toBe('h264');
  });

  it('reports rotation and the displayed size of a rotated clip', async () => {
    const p = await probe(await makeClip(ffmpegPath, path.join(dir, 'rot.mp4'), { width: 320, height: 240, seconds: 1, rotate: 90 }));
    expect(p.video?.rotation === 90 || p.video?.rotation === 270).toBe(true);
    expect(p.video).toMatchObject({ width: 240, height: 320 });
  });

  it('throws MediaError(unreadable) for garbage and for an empty file', async () => {
    const garbage = path.join(dir, 'garbage.mp4');
    await fs.writeFile(garbage, Buffer.from('this is not a video at all, just some text pretending to be one'.repeat(50)));
    await expect(probe(garbage)).rejects.toMatchObject({ name: 'MediaError', kind: 'unreadable' });
    const empty = path.join(dir, 'empty.mp4');
    await fs.writeFile(empty, '');
    await expect(probe(empty)).rejects.toBeInstanceOf(MediaError);
  });

  it('reports a missing ffprobe binary as a failure, not as an unreadable file', async () => {
    const file = path.join(dir, 'h264.mp4');
    await expect(probeMedia(file, { tools: new MediaTools({ ffmpegPath, ffprobePath: '/nonexistent/ffprobe' }) })).rejects.toMatchObject({ kind: 'failed' });
  });
});

describe('interpretProbe', () => {
  const base = {
    format: {
      format_name: 'mov,mp4,m4a,3gp,3g2,mj2',
      duration: '3.5',
      size: '1000',
      bit_rate: '2000',
      tags: { major_brand: 'isom', compatible_brands: 'isomiso2avc1mp41' },
    },
    streams: [
      { codec_type: 'video', codec_name: 'h264', profile: 'High', pix_fmt: 'yuv420p', width: 1920, height: 1080, avg_frame_rate: '30000/1001', level: 40 },
      { codec_type: 'audio', codec_name: 'aac', channels: 2, sample_rate: '44100', bit_rate: '128000' },
    ],
  };

  it('parses fractional frame rates and levels', () => {
    const p = interpretProbe(base, 'x.mp4');
    expect(p.video?.fps).toBeCloseTo(29.97, 2);
    expect(p.video?.level).toBe(40);
    expect(p.duration).toBe(3.5);
    expect(isBrowserPlayable(p)).toBe(true);
  });

  it('rejects a QuickTime-only brand but accepts iso brands and a missing brand with an mp4 extension', () => {
    const qt = { ...base, format: { ...base.format, tags: { major_brand: 'qt  ', compatible_brands: 'qt  ' } } };
    expect(interpretProbe(qt, 'x.mov').isMp4).toBe(false);
    const iso6 = { ...base, format: { ...base.format, tags: { major_brand: 'iso6', compatible_brands: 'iso6' } } };
    expect(interpretProbe(iso6, 'x.mp4').isMp4).toBe(true);
    const noBrand = { ...base, format: { ...base.format, tags: {} } };
    expect(interpretProbe(noBrand, 'x.mp4').isMp4).toBe(true);
    expect(interpretProbe(noBrand, 'x.mov').isMp4).toBe(false);
  });

  it('ignores cover art and rejects High 10 profile', () => {
    const art = {
      ...base,
      streams: [{ codec_type: 'video', codec_name: 'mjpeg', width: 500, height: 500, disposition: { attached_pic: 1 } }, base.streams[1]!],
    };
    expect(interpretProbe(art, 'x.mp4').video).toBeNull();
    const high10 = { ...base, streams: [{ ...base.streams[0]!, profile: 'High 10' }, base.streams[1]!] };
    expect(isBrowserPlayable(interpretProbe(high10, 'x.mp4'))).toBe(false);
  });

  it('normalises negative rotation', () => {
    const rot = { ...base, streams: [{ ...base.streams[0]!, side_data_list: [{ rotation: -90 }] }, base.streams[1]!] };
    expect(interpretProbe(rot, 'x.mp4').video).toMatchObject({ rotation: 270, width: 1080, height: 1920 });
  });
});
