import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BROADCAST_RUNGS, broadcastArgs, runBroadcast, topRungFor, withMeasuredRungs } from './broadcast.js';
import { MediaTools } from './media-tools.js';
import { runProcess } from './run-process.js';

const after = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

describe('broadcastArgs', () => {
  const args = broadcastArgs('rtmp://127.0.0.1:1935/live/KEY', { top: 'copy', rungs: BROADCAST_RUNGS, listSize: 7200, recording: 'recording.ts' });

  it('passes the source video through as the top rung and scales the lower ones, never up', () => {
    expect(after(args, '-i')).toBe('rtmp://127.0.0.1:1935/live/KEY');
    expect(after(args, '-c:v:0')).toBe('copy');
    expect(after(args, '-c:v:1')).toBe('libx264');
    expect(after(args, '-c:v:2')).toBe('libx264');
    expect(after(args, '-b:v:1')).toBe('1200000');
    expect(after(args, '-b:v:2')).toBe('400000');
    const filter = after(args, '-filter_complex')!;
    expect(filter).toContain('split=2');
    expect(filter).toContain("scale=-2:'min(480,ih)'");
    expect(filter).toContain("scale=-2:'min(240,ih)'");
  });

  it('writes 1 s fMP4 segments with a sliding window per rung, a master, and the recording as it arrived', () => {
    expect(after(args, '-hls_time')).toBe('1');
    expect(after(args, '-hls_list_size')).toBe('7200');
    expect(after(args, '-hls_segment_type')).toBe('fmp4');
    expect(after(args, '-hls_flags')).toContain('delete_segments');
    expect(after(args, '-master_pl_name')).toBe('master.m3u8');
    expect(after(args, '-var_stream_map')).toBe('v:0,a:0 v:1,a:1 v:2,a:2');
    expect(args.filter((a) => a === '0:a:0?')).toHaveLength(4);
    // The recording is the last output: the stream copied, no re-encode.
    expect(args.slice(-9)).toEqual(['-map', '0:v:0', '-map', '0:a:0?', '-c', 'copy', '-f', 'mpegts', 'recording.ts']);
  });
});

describe('topRungFor', () => {
  it('passes H.264 within 1080 lines and 60 frames a second through, and what the encoder did not say', () => {
    expect(topRungFor({ codec: 'h264', height: 1080, frameRate: 60 })).toBe('copy');
    expect(topRungFor({ codec: 'h264', height: null, frameRate: null })).toBe('copy');
    expect(topRungFor(null)).toBe('copy');
  });

  it('encodes anything else again, at most 1080 lines tall', () => {
    expect(topRungFor({ codec: 'hevc', height: 720, frameRate: 30 })).toEqual({ maxHeight: 720, videoBitrate: 2_800_000 });
    expect(topRungFor({ codec: 'h264', height: 1440, frameRate: 30 })).toEqual({ maxHeight: 1080, videoBitrate: 5_000_000 });
    expect(topRungFor({ codec: 'h264', height: 720, frameRate: 120 })).toEqual({ maxHeight: 720, videoBitrate: 2_800_000 });
  });

  it('puts the encoded top rung first, capped in size and frame rate, and still copies the recording', () => {
    const args = broadcastArgs('in.flv', { top: { maxHeight: 1080, videoBitrate: 5_000_000 }, rungs: BROADCAST_RUNGS, listSize: 60, recording: 'r.ts' });
    expect(after(args, '-c:v:0')).toBe('libx264');
    expect(after(args, '-b:v:0')).toBe('5000000');
    expect(after(args, '-b:v:2')).toBe('400000');
    const filter = after(args, '-filter_complex')!;
    expect(filter).toContain('split=3');
    expect(filter).toContain("scale=-2:'min(1080,ih)',fps='min(60,source_fps)'");
    expect(args.slice(-9)).toEqual(['-map', '0:v:0', '-map', '0:a:0?', '-c', 'copy', '-f', 'mpegts', 'r.ts']);
  });
});

describe('runBroadcast with a source beyond the caps (real ffmpeg)', () => {
  it('serves a 1440p60 source as 1080p at most 60 frames a second, H.264, with the lower rungs beneath', { timeout: 120_000 }, async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'broadcast-caps-'));
    try {
      const source = path.join(dir, 'source.flv');
      await runProcess('ffmpeg', [
        ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=2560x1440:rate=60', '-f', 'lavfi', '-i', 'sine=frequency=440'],
        ...['-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '60', '-c:a', 'aac', '-f', 'flv', source],
      ]);
      const tools = new MediaTools({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' });
      const out = path.join(dir, 'out');
      await fs.mkdir(out);
      const published: string[] = [];
      await runBroadcast(
        source,
        out,
        { top: topRungFor({ codec: 'h264', height: 1440, frameRate: 60 }), rungs: BROADCAST_RUNGS, listSize: 60, recording: 'recording.ts' },
        {
          tools,
          async onUpdate(update) {
            published.push(...Object.keys(update.playlists));
          },
        },
      );
      expect(published).toContain('master.m3u8');
      const { stdout } = await runProcess(
        'ffprobe',
        [
          '-v',
          'error',
          '-select_streams',
          'v:0',
          '-show_entries',
          'stream=codec_name,height,avg_frame_rate',
          '-of',
          'json',
          path.join(out, 'r0', 'index.m3u8'),
        ],
        { captureStdout: true },
      );
      const stream = JSON.parse(stdout).streams[0];
      expect(stream.codec_name).toBe('h264');
      expect(stream.height).toBe(1080);
      expect(stream.avg_frame_rate).toBe('60/1');
      const master = await fs.readFile(path.join(out, 'master.m3u8'), 'utf8');
      expect(master).toMatch(/RESOLUTION=1920x1080/);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('withMeasuredRungs', () => {
  it("puts the measured bandwidth and codecs on each rung of ffmpeg's master, keeping the rest", () => {
    const master = [
      '#EXTM3U',
      '#EXT-X-VERSION:7',
      '#EXT-X-STREAM-INF:BANDWIDTH=105600,RESOLUTION=640x360',
      'r0/index.m3u8',
      '',
      '#EXT-X-STREAM-INF:BANDWIDTH=655600,RESOLUTION=426x240,CODECS="avc1.640015,mp4a.40.2"',
      'r1/index.m3u8',
      '',
    ].join('\n');
    const out = withMeasuredRungs(master, {
      'r0/index.m3u8': { peak: 2_500_000, average: 1_800_000, codecs: ['avc1.64001e', 'mp4a.40.2'] },
    });
    expect(out.split('\n')).toEqual([
      '#EXTM3U',
      '#EXT-X-VERSION:7',
      '#EXT-X-STREAM-INF:BANDWIDTH=2500000,AVERAGE-BANDWIDTH=1800000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2"',
      'r0/index.m3u8',
      '',
      '#EXT-X-STREAM-INF:BANDWIDTH=655600,RESOLUTION=426x240,CODECS="avc1.640015,mp4a.40.2"',
      'r1/index.m3u8',
      '',
    ]);
  });
});
