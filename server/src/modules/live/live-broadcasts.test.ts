import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { MediaTools } from '../../media/media-tools.js';
import { LocalStorage } from '../../storage/local-storage.js';
import { LiveBroadcasts, SegmentWindow } from './live-broadcasts.js';

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

describe('LiveBroadcasts', () => {
  it('starts one broadcast when an encoder comes straight back while the first start still waits, and a stop meanwhile waits for it', async () => {
    const workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'broadcasts-'));
    let asked = 0;
    const broadcasts = new LiveBroadcasts({
      tools: new MediaTools({ ffmpegPath: process.env.FFMPEG_PATH ?? 'ffmpeg', ffprobePath: process.env.FFPROBE_PATH ?? 'ffprobe' }),
      storage: new LocalStorage(path.join(workDir, 'media')),
      logger: pino({ level: 'silent' }),
      workDir,
      // Nothing listens there: each ffmpeg gives up at once, which is all this needs.
      rtmpUrl: (key) => `rtmp://127.0.0.1:9/live/${key}`,
      dvrMinutes: 1,
      async sourceVideo() {
        asked++;
        await new Promise((resolve) => setTimeout(resolve, 200));
        return null;
      },
      flvStream: () => null,
    });
    try {
      await Promise.all([broadcasts.start('v1', 'key-a'), broadcasts.start('v1', 'key-a')]);
      expect(asked).toBe(1);
      // A new key is a new encoder: the old broadcast stops and one for the new key starts.
      await broadcasts.start('v1', 'key-b');
      expect(asked).toBe(2);
      const starting = broadcasts.start('v2', 'key-c');
      await broadcasts.stop('v2');
      await starting;
      expect(asked).toBe(3);
    } finally {
      await broadcasts.stopAll();
      await fs.rm(workDir, { recursive: true, force: true });
    }
  });
});
