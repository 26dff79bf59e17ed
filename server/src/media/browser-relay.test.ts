import { describe, expect, it } from 'vitest';
import { browserRelayArgs, isH264 } from './browser-relay.js';

const TARGET = 'rtmp://127.0.0.1:1935/live/key';

describe('browserRelayArgs', () => {
  it('passes H.264 through and makes the audio AAC, reading standard input and writing FLV to the ingest', () => {
    const args = browserRelayArgs({ mimeType: 'video/webm;codecs=h264,opus' }, TARGET);
    expect(args.slice(args.indexOf('-i'), args.indexOf('-i') + 2)).toEqual(['-i', 'pipe:0']);
    expect(args.slice(args.indexOf('-c:v'), args.indexOf('-c:v') + 2)).toEqual(['-c:v', 'copy']);
    expect(args.slice(args.indexOf('-c:a'), args.indexOf('-c:a') + 2)).toEqual(['-c:a', 'aac']);
    expect(args.slice(-3)).toEqual(['-f', 'flv', TARGET]);
    expect(args).not.toContain('libx264');
  });

  it('encodes any other video with libx264 for low latency, a keyframe every second', () => {
    const args = browserRelayArgs({ mimeType: 'video/webm;codecs=vp8,opus' }, TARGET);
    expect(args.slice(args.indexOf('-c:v'), args.indexOf('-c:v') + 2)).toEqual(['-c:v', 'libx264']);
    expect(args.join(' ')).toContain('-preset veryfast -tune zerolatency');
    expect(args.join(' ')).toContain('-force_key_frames expr:gte(t,n_forced*1)');
  });

  it('tells H.264 by its names in a MIME type', () => {
    expect(isH264('video/mp4;codecs=avc1,mp4a')).toBe(true);
    expect(isH264('video/mp4;codecs=avc1.42E01F')).toBe(true);
    expect(isH264('video/x-matroska;codecs=H264')).toBe(true);
    expect(isH264('video/webm;codecs=vp9,opus')).toBe(false);
    expect(isH264('video/webm')).toBe(false);
  });
});
