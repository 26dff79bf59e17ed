import { describe, expect, it } from 'vitest';
import type { ProbeResult } from './probe.js';
import { planLadder, planStoryboard, playableSize, sizeForShortSide } from './video-plan.js';

function probe(
  width: number,
  height: number,
  extra: { fps?: number; videoBitRate?: number | null; audio?: boolean; duration?: number; bitRate?: number | null } = {},
): ProbeResult {
  return {
    formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
    isMp4: true,
    duration: extra.duration ?? 60,
    size: 1,
    bitRate: extra.bitRate ?? null,
    video: {
      codec: 'h264',
      profile: 'High',
      pixFmt: 'yuv420p',
      width,
      height,
      fps: extra.fps ?? 30,
      bitRate: extra.videoBitRate ?? null,
      rotation: 0,
      level: 40,
    },
    audio: extra.audio === false ? null : { codec: 'aac', channels: 2, sampleRate: 44_100, bitRate: 128_000 },
  };
}

describe('planLadder', () => {
  it('makes every rung up to a 1080p source and none above it', () => {
    const plan = planLadder(probe(1920, 1080));
    expect(plan.rungs.map((r) => `${r.name}:${r.width}x${r.height}`)).toEqual([
      '240p:426x240',
      '360p:640x360',
      '480p:854x480',
      '720p:1280x720',
      '1080p:1920x1080',
    ]);
    expect(plan.hasAudio).toBe(true);
    expect(plan.audioSampleRate).toBe(44_100);
    // One audio track for every rung.
    expect(plan.audioBitrate).toBe(128_000);
  });

  it('never upscales: a 4K source tops out at 1080p, a 500p one at 480p', () => {
    expect(planLadder(probe(3840, 2160)).rungs.at(-1)!.name).toBe('1080p');
    expect(planLadder(probe(888, 500)).rungs.map((r) => r.name)).toEqual(['240p', '360p', '480p']);
    expect(planLadder(probe(1920, 1080), { rungs: [1080, 360] }).rungs.map((r) => r.name)).toEqual(['360p', '1080p']);
    // A source below every chosen rung still gets one, at its own size.
    expect(planLadder(probe(854, 480), { rungs: [720, 1080] }).rungs.map((r) => r.name)).toEqual(['480p']);
  });

  it('compares the short side of a portrait source', () => {
    const plan = planLadder(probe(720, 1280));
    expect(plan.rungs.map((r) => `${r.width}x${r.height}`)).toEqual(['240x426', '360x640', '480x854', '720x1280']);
  });

  it('gives a tiny source one rung at its own size', () => {
    const plan = planLadder(probe(160, 120));
    expect(plan.rungs).toHaveLength(1);
    expect(plan.rungs[0]).toMatchObject({ width: 160, height: 120, name: '120p' });
  });

  it('caps bitrates near the source bitrate', () => {
    const plan = planLadder(probe(1920, 1080, { videoBitRate: 1_000_000 }));
    for (const r of plan.rungs) expect(r.videoBitrate).toBeLessThanOrEqual(1_100_000);
    expect(plan.rungs[0]!.videoBitrate).toBe(400_000);
    expect(plan.rungs.at(-1)!.videoBitrate).toBe(1_100_000);
    // Without a stream bitrate, the container's minus the audio's is used.
    const fromFormat = planLadder(probe(1920, 1080, { videoBitRate: null, bitRate: 928_000 }));
    expect(fromFormat.rungs.at(-1)!.videoBitrate).toBe(880_000);
  });

  it('puts a keyframe every two seconds at the source frame rate, capped at 60 fps', () => {
    expect(planLadder(probe(1280, 720, { fps: 25 })).gop).toBe(50);
    expect(planLadder(probe(1280, 720, { fps: 30000 / 1001 })).gop).toBe(60);
    expect(planLadder(probe(1280, 720, { fps: 120 }))).toMatchObject({ fps: 60, gop: 120 });
    expect(planLadder(probe(1280, 720, { fps: 0 }))).toMatchObject({ fps: 30, gop: 60 });
  });

  it('plans video-only rungs without audio', () => {
    const plan = planLadder(probe(1280, 720, { audio: false }));
    expect(plan.hasAudio).toBe(false);
    expect(plan.audioBitrate).toBe(0);
  });
});

describe('sizes', () => {
  it('keeps even dimensions and the shape', () => {
    expect(sizeForShortSide(1920, 1080, 360)).toEqual({ width: 640, height: 360 });
    expect(sizeForShortSide(1440, 1080, 240)).toEqual({ width: 320, height: 240 });
    expect(sizeForShortSide(1000, 1001, 480)).toEqual({ width: 480, height: 480 });
  });

  it('caps the first playable transcode at 720p and never above the source', () => {
    expect(playableSize(probe(3840, 2160))).toEqual({ width: 1280, height: 720 });
    expect(playableSize(probe(1080, 1920))).toEqual({ width: 720, height: 1280 });
    expect(playableSize(probe(640, 360))).toEqual({ width: 640, height: 360 });
  });
});

describe('planStoryboard', () => {
  it('takes a tile a second for short videos', () => {
    expect(planStoryboard(probe(1280, 720, { duration: 5 }))).toMatchObject({
      interval: 1,
      tiles: 5,
      sheets: 1,
      tileWidth: 160,
      tileHeight: 90,
      columns: 5,
      rows: 1,
    });
    expect(planStoryboard(probe(1280, 720, { duration: 25 }))).toMatchObject({ tiles: 25, columns: 10, rows: 3 });
  });

  it('keeps long videos to about a hundred tiles', () => {
    const plan = planStoryboard(probe(1920, 1080, { duration: 3600 }));
    expect(plan.interval).toBe(36);
    expect(plan.tiles).toBe(100);
    expect(plan).toMatchObject({ sheets: 1, columns: 10, rows: 10 });
    const odd = planStoryboard(probe(1920, 1080, { duration: 150.5 }));
    expect(odd.interval).toBe(2);
    expect(odd.tiles).toBe(76);
  });

  it('fits portrait tiles in the same box', () => {
    expect(planStoryboard(probe(720, 1280))).toMatchObject({ tileWidth: 90, tileHeight: 160 });
  });

  it('spills over to a second sheet when a sheet is smaller than the tile count', () => {
    expect(planStoryboard(probe(1280, 720, { duration: 30 }), { columns: 5, rows: 5 })).toMatchObject({ tiles: 30, sheets: 2 });
  });
});
