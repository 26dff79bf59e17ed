import { describe, expect, it } from 'vitest';
import { parseStartTime } from './start-time';

describe('parseStartTime', () => {
  it('reads seconds and YouTube-style times', () => {
    expect(parseStartTime('192')).toBe(192);
    expect(parseStartTime('2.5')).toBe(2.5);
    expect(parseStartTime('3m12s')).toBe(192);
    expect(parseStartTime('1h2m3s')).toBe(3723);
    expect(parseStartTime('45s')).toBe(45);
  });

  it('ignores what is not a time, and the start itself', () => {
    for (const raw of [null, '', '0', 'abc', '-5', '3x', '1h-2m']) expect(parseStartTime(raw)).toBeNull();
  });
});
