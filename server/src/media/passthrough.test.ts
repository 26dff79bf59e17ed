import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from './fixtures.js';
import { parseMediaPlaylist } from './hls.js';
import { readKeyframeTimes } from './keyframes.js';
import { MediaTools } from './media-tools.js';
import { probeMedia } from './probe.js';
import { runProcess } from './run-process.js';
import { makeLadder } from './video-tools.js';

const ffmpegPath = process.env.FFMPEG_PATH ?? 'ffmpeg';
const ffprobePath = process.env.FFPROBE_PATH ?? 'ffprobe';
const tools = new MediaTools({ ffmpegPath, ffprobePath });

let dir: string;

/** The hash of every video (or audio) packet, in order: equal lists mean byte-identical streams. */
async function packetHashes(input: string, stream = '0:v:0'): Promise<string[]> {
  const { stdout } = await runProcess(ffmpegPath, ['-hide_banner', '-loglevel', 'error', '-i', input, '-map', stream, '-c', 'copy', '-f', 'framemd5', '-'], {
    captureStdout: true,
  });
  return stdout
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const cols = l.split(',').map((c) => c.trim());
      return `${cols[4]}:${cols[5]}`; // size and md5 of the packet
    });
}

/** Size, pixel format, sample aspect ratio and frame count of a playlist's (or file's) video. */
async function videoShape(input: string) {
  const { stdout } = await runProcess(
    ffprobePath,
    [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-count_packets',
      '-show_entries',
      'stream=width,height,pix_fmt,sample_aspect_ratio,nb_read_packets',
      '-of',
      'json',
      '--',
      input,
    ],
    { captureStdout: true },
  );
  const s = (JSON.parse(stdout) as { streams: { width: number; height: number; pix_fmt: string; sample_aspect_ratio?: string; nb_read_packets: string }[] })
    .streams[0]!;
  const [num, den] = (s.sample_aspect_ratio && s.sample_aspect_ratio !== '0:1' ? s.sample_aspect_ratio : '1:1').split(':').map(Number);
  return { width: s.width, height: s.height, pixFmt: s.pix_fmt, displayAspect: (s.width * num!) / den! / s.height, frames: Number(s.nb_read_packets) };
}

/** Every rung has its planned size and pixel format and displays at the source's shape. */
async function expectRungShapes(out: string, rungs: { name: string; width: number; height: number }[], sourceAspect: number, frames: number) {
  for (const rung of rungs) {
    const shape = await videoShape(path.join(out, rung.name, 'index.m3u8'));
    expect({ width: shape.width, height: shape.height, pixFmt: shape.pixFmt, frames: shape.frames }, rung.name).toEqual({
      width: rung.width,
      height: rung.height,
      pixFmt: 'yuv420p',
      frames,
    });
    expect(shape.displayAspect, rung.name).toBeCloseTo(sourceAspect, 6);
  }
}

/**
 * The audio was encoded once: every rung carries the same AAC-LC stereo packets, and in each rung
 * the audio starts with the video (within a frame), so it stays in sync.
 */
async function expectSharedAudio(out: string, rungs: { name: string }[]) {
  const hashes: string[][] = [];
  for (const rung of rungs) {
    const playlist = path.join(out, rung.name, 'index.m3u8');
    hashes.push(await packetHashes(playlist, '0:a:0'));
    const { stdout } = await runProcess(
      ffprobePath,
      ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,profile,channels,start_time', '-of', 'json', '--', playlist],
      { captureStdout: true },
    );
    const streams = (JSON.parse(stdout) as { streams: { codec_type: string; codec_name: string; profile?: string; channels?: number; start_time: string }[] })
      .streams;
    const audio = streams.find((st) => st.codec_type === 'audio')!;
    const video = streams.find((st) => st.codec_type === 'video')!;
    expect({ codec: audio.codec_name, profile: audio.profile, channels: audio.channels }, rung.name).toEqual({ codec: 'aac', profile: 'LC', channels: 2 });
    expect(Math.abs(Number(audio.start_time) - Number(video.start_time)), rung.name).toBeLessThan(0.05);
  }
  expect(hashes[0]!.length).toBeGreaterThan(100);
  for (const h of hashes) expect(h).toEqual(hashes[0]);
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'passthrough-'));
}, 60_000);

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('passthrough rung', () => {
  it('copies a browser-playable H.264 source into its rung and lines up every rung at its keyframes', async () => {
    // 1.5 s keyframes at 30 fps: not the ladder's own 2 s, so lining up on them is the source's doing.
    const source = await makeClip(ffmpegPath, path.join(dir, 'source.mp4'), { width: 854, height: 480, seconds: 9, fps: 30, gop: 45, videoBitrate: '1200k' });
    const probe = await probeMedia(source, { tools });
    const out = path.join(dir, 'hls');
    const result = await makeLadder(source, out, probe, { tools });
    expect(result.plan.rungs.map((r) => r.name)).toEqual(['240p', '360p', '480p']);
    expect(result.plan.passthrough).toBe(2);

    const top = path.join(out, '480p', 'index.m3u8');
    const [sourceHashes, rungHashes] = await Promise.all([packetHashes(source), packetHashes(top)]);
    expect(sourceHashes.length).toBe(270);
    expect(rungHashes).toEqual(sourceHashes);

    const sourceKeys = await readKeyframeTimes(source, { tools });
    expect(sourceKeys).toEqual([0, 1.5, 3, 4.5, 6, 7.5]);
    const durations: number[][] = [];
    for (const rung of result.plan.rungs) {
      const playlist = path.join(out, rung.name, 'index.m3u8');
      expect(await readKeyframeTimes(playlist, { tools }), rung.name).toEqual(sourceKeys);
      durations.push(parseMediaPlaylist(await fs.readFile(playlist, 'utf8')).segments.map((s) => Math.round(s.duration * 1000)));
    }
    // Segments cut at the same keyframes in every rung: 4.5 s, 4.5 s.
    expect(durations[0]).toEqual([4500, 4500]);
    for (const d of durations) expect(d).toEqual(durations[0]);
    // 240p is scaled from 360p, which is scaled from the source: sizes stay exact, no frame is lost.
    expect(result.plan.rungs.map((r) => `${r.width}x${r.height}`)).toEqual(['428x240', '640x360', '854x480']);
    await expectRungShapes(out, result.plan.rungs, 854 / 480, 270);
    await expectSharedAudio(out, result.plan.rungs);
    // The audio track made for the rungs is not left behind among the files to publish.
    expect(result.files.filter((f) => !f.includes('/'))).toEqual(['master.m3u8']);
    expect((await fs.readdir(out)).sort()).toEqual(['240p', '360p', '480p', 'master.m3u8']);
  }, 180_000);

  it('encodes every rung of a source that is not browser-playable or over its rung bitrate', async () => {
    // Keyframes every 1.2 s in the source: the encoded ladder ignores them and places its own every 2 s.
    const heavy = await makeClip(ffmpegPath, path.join(dir, 'heavy.mp4'), { width: 640, height: 360, seconds: 5, gop: 30, videoBitrate: '3000k' });
    const probe = await probeMedia(heavy, { tools });
    const out = path.join(dir, 'heavy-hls');
    const result = await makeLadder(heavy, out, probe, { tools });
    expect(result.plan.passthrough).toBeNull();
    expect(result.variants.length).toBe(2);
    for (const rung of result.plan.rungs) {
      expect(await readKeyframeTimes(path.join(out, rung.name, 'index.m3u8'), { tools }), rung.name).toEqual([0, 2, 4]);
    }
    await expectRungShapes(out, result.plan.rungs, 640 / 360, 125);
    await expectSharedAudio(out, result.plan.rungs);
  }, 180_000);
});
