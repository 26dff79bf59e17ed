import { describe, expect, it } from 'vitest';
import { HLS_JS_ONLY_TYPE, HLS_TYPE, hlsSourceType } from './hls-type';

describe('hlsSourceType', () => {
  it('hides the ladder from the browser where hls.js plays it', () => {
    expect(hlsSourceType({ hlsJs: true, airPlay: false })).toBe(HLS_JS_ONLY_TYPE);
  });

  it('keeps the plain type where only the browser can play HLS (an older iPhone)', () => {
    expect(hlsSourceType({ hlsJs: false, airPlay: true })).toBe(HLS_TYPE);
    expect(hlsSourceType({ hlsJs: false, airPlay: false })).toBe(HLS_TYPE);
  });

  it('keeps the plain type where AirPlay needs it, even with hls.js playing', () => {
    expect(hlsSourceType({ hlsJs: true, airPlay: true })).toBe(HLS_TYPE);
  });
});
