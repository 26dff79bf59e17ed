import { describe, expect, it } from 'vitest';
import { isFinished, resumePosition, watchedFraction } from './resume-rules';

describe('resume rules', () => {
  it('counts the last seconds or 95% as finished', () => {
    expect(isFinished(50, 100)).toBe(false);
    expect(isFinished(95, 100)).toBe(true);
    expect(isFinished(560, 600)).toBe(false);
    expect(isFinished(37, 40)).toBe(true);
    expect(isFinished(36, 40)).toBe(false);
    expect(isFinished(10, 0)).toBe(false);
  });

  it('offers to resume only from a place worth resuming', () => {
    expect(resumePosition(192, 600)).toBe(192);
    expect(resumePosition(1, 600)).toBeNull();
    expect(resumePosition(599, 600)).toBeNull();
    expect(resumePosition(null, 600)).toBeNull();
    expect(resumePosition(undefined, 600)).toBeNull();
    expect(resumePosition(Number.NaN, 600)).toBeNull();
  });

  it('draws a bar for part-watched videos only', () => {
    expect(watchedFraction(30, 120)).toBe(0.25);
    expect(watchedFraction(0, 120)).toBe(0);
    expect(watchedFraction(119, 120)).toBe(0);
    expect(watchedFraction(30, 0)).toBe(0);
  });
});
