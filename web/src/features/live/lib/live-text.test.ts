import { describe, expect, it } from 'vitest';
import { bitrateText, countdownText, lastDataText, watchingText } from './live-text';

const now = new Date('2026-12-01T18:00:00Z');
const after = (seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

describe('countdownText', () => {
  it('counts down in hours and minutes, then minutes and seconds, then seconds', () => {
    expect(countdownText(after(3720), now)).toBe('Live starts in 1 h 02 min');
    expect(countdownText(after(3 * 86_400 + 2 * 3600), now)).toBe('Live starts in 3 d 2 h');
    expect(countdownText(after(303), now)).toBe('Live starts in 5 min 03 s');
    expect(countdownText(after(12), now)).toBe('Live starts in 12 s');
    // A fraction of a second left still reads as a second, never "0 s".
    expect(countdownText(new Date(now.getTime() + 400).toISOString(), now)).toBe('Live starts in 1 s');
  });

  it('says it is starting soon once the time has passed', () => {
    expect(countdownText(after(0), now)).toBe('Starting soon');
    expect(countdownText(after(-600), now)).toBe('Starting soon');
  });
});

describe('the live page texts', () => {
  it('counts viewers, bitrates and the age of the last data', () => {
    expect(watchingText(2)).toBe('2 watching');
    expect(watchingText(1234)).toBe('1.2K watching');
    expect(bitrateText(2_500_000)).toBe('2.5 Mb/s');
    expect(bitrateText(640_000)).toBe('640 kb/s');
    expect(bitrateText(null)).toBe('—');
    expect(lastDataText(after(-2), now)).toBe('last data 2 s ago');
    expect(lastDataText(after(-125), now)).toBe('last data 2 min ago');
    expect(lastDataText(null, now)).toBe('no data yet');
  });
});
