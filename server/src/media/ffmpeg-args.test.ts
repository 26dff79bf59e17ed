import { describe, expect, it } from 'vitest';
import { fastStartArgs, fpsArg, ladderArgs, ladderAudioArgs, storyboardArgs } from './ffmpeg-args.js';
import type { LadderPlan } from './video-plan.js';

const after = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

describe('fastStartArgs', () => {
  it('copies the first video and audio streams with the index first, without re-encoding', () => {
    const args = fastStartArgs('/in/source.mp4', '/out/play.mp4');
    expect(after(args, '-i')).toBe('/in/source.mp4');
    expect(after(args, '-c')).toBe('copy');
    expect(after(args, '-movflags')).toBe('+faststart');
    expect(args).toContain('0:a:0?');
    expect(after(args, '-progress')).toBe('pipe:1');
    expect(args.at(-1)).toBe('/out/play.mp4');
    expect(args).not.toContain('libx264');
  });
});

describe('fpsArg', () => {
  it('writes NTSC rates as exact fractions', () => {
    expect(fpsArg(30000 / 1001)).toBe('30000/1001');
    expect(fpsArg(24000 / 1001)).toBe('24000/1001');
    expect(fpsArg(25)).toBe('25');
    expect(fpsArg(12.5)).toBe('12.500');
  });
});

describe('ladderArgs', () => {
  const plan: LadderPlan = {
    fps: 30,
    gop: 60,
    hasAudio: true,
    audioSampleRate: 48_000,
    audioBitrate: 128_000,
    rungs: [
      { name: '240p', width: 426, height: 240, videoBitrate: 400_000 },
      { name: '720p', width: 1280, height: 720, videoBitrate: 2_800_000 },
    ],
    passthrough: null,
    keyframes: null,
  };

  it('decodes once and scales each rung from the one above it', () => {
    const args = ladderArgs('src.mp4', plan, { outDir: '/w/hls', audio: '/w/audio.m4a' });
    expect(args.filter((a) => a === 'src.mp4')).toHaveLength(1);
    expect(after(args, '-filter_complex')).toBe(
      '[0:v:0]fps=30,scale=1280:720:flags=bicubic,format=yuv420p,split=2[v1][c1];[c1]scale=426:240:flags=bicubic,format=yuv420p[v0]',
    );
    expect(args.filter((a) => a === '-map')).toHaveLength(4);
  });

  it('sets per-rung bitrates, fixed two-second keyframes and 4 s fMP4 segments', () => {
    const args = ladderArgs('src.mp4', plan, { outDir: '/w/hls', audio: '/w/audio.m4a' });
    expect(after(args, '-b:v:0')).toBe('400000');
    expect(after(args, '-b:v:1')).toBe('2800000');
    expect(after(args, '-maxrate:v:1')).toBe('3080000');
    expect(after(args, '-g:v:0')).toBe('60');
    expect(after(args, '-keyint_min:v:1')).toBe('60');
    expect(after(args, '-sc_threshold:v:1')).toBe('0');
    expect(after(args, '-hls_time')).toBe('4');
    expect(after(args, '-hls_segment_type')).toBe('fmp4');
    expect(after(args, '-hls_playlist_type')).toBe('vod');
    expect(after(args, '-var_stream_map')).toBe('v:0,a:0,name:240p v:1,a:1,name:720p');
    expect(after(args, '-hls_segment_filename')).toBe('/w/hls/%v/seg-%05d.m4s');
    expect(args.at(-1)).toBe('/w/hls/%v/index.m3u8');
  });

  it('copies the passthrough rung and forces the source keyframe times on the others', () => {
    const args = ladderArgs('src.mp4', { ...plan, passthrough: 1, keyframes: [0, 2.5, 4.75] }, { outDir: '/w/hls', audio: '/w/audio.m4a' });
    expect(after(args, '-filter_complex')).toBe('[0:v:0]scale=426:240:flags=bicubic,format=yuv420p[v0]');
    expect(after(args, '-c:v:1')).toBe('copy');
    expect(args).not.toContain('-b:v:1');
    expect(after(args, '-c:v:0')).toBe('libx264');
    expect(after(args, '-force_key_frames:v:0')).toBe('0.000000,2.500000,4.750000');
    expect(after(args, '-sc_threshold:v:0')).toBe('0');
    expect(args.filter((a, i) => a === '-map' && args[i + 1] === '0:v:0')).toHaveLength(1);
  });

  it('chains five rungs from the largest down, whatever order the plan lists them in', () => {
    const five: LadderPlan = {
      ...plan,
      rungs: [
        { name: '240p', width: 426, height: 240, videoBitrate: 400_000 },
        { name: '360p', width: 640, height: 360, videoBitrate: 800_000 },
        { name: '480p', width: 854, height: 480, videoBitrate: 1_400_000 },
        { name: '720p', width: 1280, height: 720, videoBitrate: 2_800_000 },
        { name: '1080p', width: 1920, height: 1080, videoBitrate: 5_000_000 },
      ],
    };
    const step = (w: number, h: number) => `scale=${w}:${h}:flags=bicubic,format=yuv420p`;
    expect(after(ladderArgs('src.mp4', five, { outDir: '/w/hls', audio: '/w/audio.m4a' }), '-filter_complex')).toBe(
      `[0:v:0]fps=30,${step(1920, 1080)},split=2[v4][c4];[c4]${step(1280, 720)},split=2[v3][c3];` +
        `[c3]${step(854, 480)},split=2[v2][c2];[c2]${step(640, 360)},split=2[v1][c1];[c1]${step(426, 240)}[v0]`,
    );
    // With the 1080p rung copied, the 720p rung is the one scaled from the source.
    const copied = ladderArgs('src.mp4', { ...five, passthrough: 4, keyframes: [0, 2] }, { outDir: '/w/hls', audio: '/w/audio.m4a' });
    expect(after(copied, '-filter_complex')).toBe(
      `[0:v:0]${step(1280, 720)},split=2[v3][c3];[c3]${step(854, 480)},split=2[v2][c2];[c2]${step(640, 360)},split=2[v1][c1];[c1]${step(426, 240)}[v0]`,
    );
    const videoMaps = copied.flatMap((a, i) => (a === '-map' && copied[i + 1] !== '1:a:0' ? [copied[i + 1]] : []));
    expect(videoMaps).toEqual(['[v0]', '[v1]', '[v2]', '[v3]', '0:v:0']);
  });

  it('copies the audio track encoded once into every rung instead of encoding it per rung', () => {
    const args = ladderArgs('src.mp4', plan, { outDir: '/w/hls', audio: '/w/audio.m4a' });
    expect(args.filter((a, i) => a === '-i' || args[i - 1] === '-i')).toEqual(['-i', 'src.mp4', '-i', '/w/audio.m4a']);
    expect(args.filter((a, i) => a === '1:a:0' && args[i - 1] === '-map')).toHaveLength(2);
    expect(args).not.toContain('0:a:0');
    expect(after(args, '-c:a')).toBe('copy');
    expect(args).not.toContain('aac');
    expect(args.some((a) => a.startsWith('-b:a'))).toBe(false);
    expect(() => ladderArgs('src.mp4', plan, { outDir: '/w/hls' })).toThrow(/audio/);
  });

  it('leaves audio out of a silent source', () => {
    const args = ladderArgs('src.mp4', { ...plan, hasAudio: false, audioBitrate: 0 }, { outDir: '/w/hls' });
    expect(args).not.toContain('1:a:0');
    expect(args.filter((a) => a === '-i')).toHaveLength(1);
    expect(args).not.toContain('-c:a');
    expect(after(args, '-var_stream_map')).toBe('v:0,name:240p v:1,name:720p');
  });
});

describe('ladderAudioArgs', () => {
  it('encodes the first audio stream once as AAC stereo at the plan bitrate and rate, starting at zero', () => {
    const args = ladderAudioArgs(
      'src.mp4',
      { fps: 30, gop: 60, hasAudio: true, audioSampleRate: 44_100, audioBitrate: 128_000, rungs: [], passthrough: null, keyframes: null },
      '/w/audio.m4a',
    );
    expect(after(args, '-map')).toBe('0:a:0');
    expect(args).toContain('-vn');
    expect(after(args, '-c:a')).toBe('aac');
    expect(after(args, '-ac')).toBe('2');
    expect(after(args, '-ar')).toBe('44100');
    expect(after(args, '-b:a')).toBe('128000');
    expect(after(args, '-af')).toBe('aresample=async=1:first_pts=0');
    expect(args.at(-1)).toBe('/w/audio.m4a');
  });
});

describe('storyboardArgs', () => {
  it('samples, scales and tiles frames into numbered JPEG sheets', () => {
    const args = storyboardArgs('src.mp4', { interval: 2, tileWidth: 160, tileHeight: 90, columns: 10, rows: 10, tiles: 50, sheets: 1 }, '/w/sprite-%d.jpg');
    expect(after(args, '-vf')).toBe('fps=1/2,scale=160:90:flags=bilinear,tile=10x10');
    expect(after(args, '-start_number')).toBe('0');
    expect(args).toContain('-an');
    expect(args.at(-1)).toBe('/w/sprite-%d.jpg');
  });
});
