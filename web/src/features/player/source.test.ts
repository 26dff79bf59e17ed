import { describe, expect, it } from 'vitest';
import { absoluteUrl, pickSource } from './source';

const MP4 = '/media/videos/v1/fast.mp4';
const HLS = '/media/videos/v1/hls/master.m3u8';

describe('pickSource', () => {
  it('plays the progressive file until the ladder exists', () => {
    expect(pickSource(MP4, null, null, false)).toEqual({ kind: 'mp4', src: MP4, type: 'video/mp4' });
  });

  it('prefers the HLS master playlist when there is one', () => {
    expect(pickSource(MP4, HLS, null, false)).toEqual({ kind: 'hls', src: HLS, type: 'application/x-mpegurl' });
  });

  it('switches to the ladder when it appears before playback started', () => {
    const first = pickSource(MP4, null, null, false);
    expect(pickSource(MP4, HLS, first, false).kind).toBe('hls');
  });

  it('keeps the progressive file when the ladder appears mid-watch', () => {
    const first = pickSource(MP4, null, null, false);
    expect(pickSource(MP4, HLS, first, true)).toBe(first);
  });

  it('returns the same object when nothing changed, so the player is not reloaded', () => {
    const hls = pickSource(MP4, HLS, null, false);
    expect(pickSource(MP4, HLS, hls, true)).toBe(hls);
    const mp4 = pickSource(MP4, null, null, false);
    expect(pickSource(MP4, null, mp4, false)).toBe(mp4);
  });

  it('follows a new video even when the old one had started', () => {
    const first = pickSource(MP4, null, null, false);
    expect(pickSource('/media/videos/v2/fast.mp4', null, first, true)).toEqual({
      kind: 'mp4',
      src: '/media/videos/v2/fast.mp4',
      type: 'video/mp4',
    });
    expect(pickSource('/media/videos/v2/fast.mp4', '/media/videos/v2/hls/master.m3u8', first, true).kind).toBe('hls');
  });
});

describe('absoluteUrl', () => {
  it('resolves a path against the page', () => {
    expect(absoluteUrl('/media/videos/v1/storyboard.vtt', 'http://localhost:5173/video/v1')).toBe('http://localhost:5173/media/videos/v1/storyboard.vtt');
  });

  it('keeps absolute URLs', () => {
    expect(absoluteUrl('https://cdn.example.com/sb.vtt', 'http://localhost/')).toBe('https://cdn.example.com/sb.vtt');
  });

  it('so that sprite names resolve beside the .vtt', () => {
    const vtt = absoluteUrl('/media/videos/v1/storyboard/index.vtt', 'http://localhost:7000/video/v1');
    expect(new URL('sprite-0.jpg', vtt).href).toBe('http://localhost:7000/media/videos/v1/storyboard/sprite-0.jpg');
  });
});
