import { describe, expect, it } from 'vitest';
import { clampTime, clampVolume, FRAME_SECONDS, frameStep, SPEED_STEPS, stepSpeed } from './playback';

describe('stepSpeed', () => {
  it('walks the YouTube list up and down', () => {
    expect([...SPEED_STEPS]).toEqual([0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2]);
    expect(stepSpeed(1, 1)).toBe(1.25);
    expect(stepSpeed(1.25, 1)).toBe(1.5);
    expect(stepSpeed(1, -1)).toBe(0.75);
    expect(stepSpeed(0.5, -1)).toBe(0.25);
  });

  it('stays at the ends', () => {
    expect(stepSpeed(2, 1)).toBe(2);
    expect(stepSpeed(0.25, -1)).toBe(0.25);
  });

  it('moves to the nearest listed speed from an unlisted one', () => {
    expect(stepSpeed(1.1, 1)).toBe(1.25);
    expect(stepSpeed(1.1, -1)).toBe(1);
    expect(stepSpeed(3, -1)).toBe(2);
    expect(stepSpeed(0.1, 1)).toBe(0.25);
  });
});

describe('frameStep', () => {
  it('steps one 30 fps frame', () => {
    expect(FRAME_SECONDS).toBeCloseTo(1 / 30, 12);
    expect(frameStep(10, 1, 60)).toBeCloseTo(10 + 1 / 30, 9);
    expect(frameStep(10, -1, 60)).toBeCloseTo(10 - 1 / 30, 9);
  });

  it('stays within the media', () => {
    expect(frameStep(0.01, -1, 60)).toBe(0);
    expect(frameStep(59.99, 1, 60)).toBe(60);
  });
});

describe('clampTime and clampVolume', () => {
  it('clamps time to [0, duration], only flooring when the duration is unknown', () => {
    expect(clampTime(-3, 100)).toBe(0);
    expect(clampTime(130, 100)).toBe(100);
    expect(clampTime(130, Number.NaN)).toBe(130);
    expect(clampTime(130, 0)).toBe(130);
  });

  it('clamps volume to [0, 1] in whole percents', () => {
    expect(clampVolume(1.05)).toBe(1);
    expect(clampVolume(-0.05)).toBe(0);
    expect(clampVolume(0.1 + 0.2)).toBe(0.3);
  });
});
