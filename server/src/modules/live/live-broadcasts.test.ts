import { describe, expect, it } from 'vitest';
import { SegmentWindow } from './live-broadcasts.js';

const playlist = (...segments: string[]) =>
  ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-TARGETDURATION:1', '#EXT-X-MAP:URI="init.mp4"', ...segments.flatMap((s) => ['#EXTINF:1.0,', s]), ''].join('\n');

describe('SegmentWindow', () => {
  it('gives the segments that left a rung playlist once the grace has passed, each once, never the init segment', () => {
    let now = 0;
    const window = new SegmentWindow(30_000, () => now);
    expect(window.expired({ 'r0/index.m3u8': playlist('seg-000000.m4s', 'seg-000001.m4s'), 'r1/index.m3u8': playlist('seg-000000.m4s') })).toEqual([]);
    now = 1000;
    expect(window.expired({ 'r0/index.m3u8': playlist('seg-000001.m4s', 'seg-000002.m4s') })).toEqual([]);
    now = 20_000;
    expect(window.expired({ 'r1/index.m3u8': playlist('seg-000001.m4s'), 'master.m3u8': '#EXTM3U\n' })).toEqual([]);
    now = 31_000;
    // r0's first segment left at 1 s; r1's at 20 s, still in its grace.
    expect(window.expired({ 'r0/index.m3u8': playlist('seg-000002.m4s', 'seg-000003.m4s') })).toEqual(['r0/seg-000000.m4s']);
    now = 60_000;
    // r0's second segment left at 31 s.
    expect(window.expired({})).toEqual(['r1/seg-000000.m4s']);
    now = 61_000;
    expect(window.expired({})).toEqual(['r0/seg-000001.m4s']);
    expect(window.expired({})).toEqual([]);
  });
});
