import { describe, expect, it } from 'vitest';
import { BROADCAST_RUNGS, broadcastArgs, withMeasuredRungs } from './broadcast.js';

const after = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

describe('broadcastArgs', () => {
  const args = broadcastArgs('rtmp://127.0.0.1:1935/live/KEY', { rungs: BROADCAST_RUNGS, listSize: 7200, recording: 'recording.ts' });

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
