import { describe, expect, it } from 'vitest';
import { activeCueIndex, parseWebVtt } from './webvtt';

describe('parseWebVtt', () => {
  it('reads cues with their times and words, without markup', () => {
    const cues = parseWebVtt(
      'WEBVTT\n\n00:00:01.500 --> 00:00:03.000 align:start\n<v Ann>Hello <b>there</b></v>\nsecond &amp; line\n\n01:02:03.004 --> 01:02:04.000\n&lt;script&gt;\n',
    );
    expect(cues).toEqual([
      { start: 1.5, end: 3, text: 'Hello there second & line' },
      { start: 3723.004, end: 3724, text: '<script>' },
    ]);
  });

  it('skips blocks that are not cues', () => {
    expect(parseWebVtt('WEBVTT\n\nNOTE hi\n\nbroken --> times\nx\n')).toEqual([]);
  });
});

describe('activeCueIndex', () => {
  const cues = [
    { start: 1, end: 2, text: 'a' },
    { start: 2, end: 4, text: 'b' },
    { start: 5, end: 6, text: 'c' },
  ];
  it('finds the cue playing now, or none between cues', () => {
    expect(activeCueIndex(cues, 0.5)).toBe(-1);
    expect(activeCueIndex(cues, 1)).toBe(0);
    expect(activeCueIndex(cues, 2.5)).toBe(1);
    expect(activeCueIndex(cues, 4.5)).toBe(-1);
    expect(activeCueIndex(cues, 5.5)).toBe(2);
  });
});
