import { describe, expect, it } from 'vitest';
import { chapterCues } from './chapter-cues';

describe('chapterCues', () => {
  it('runs each chapter until the next and the last until the end', () => {
    expect(
      chapterCues(
        [
          { start: 0, title: 'Intro' },
          { start: 12, title: 'Middle' },
          { start: 30, title: 'End' },
        ],
        41.5,
      ),
    ).toEqual([
      { startTime: 0, endTime: 12, text: 'Intro' },
      { startTime: 12, endTime: 30, text: 'Middle' },
      { startTime: 30, endTime: 41.5, text: 'End' },
    ]);
  });

  it('has no cues without chapters', () => {
    expect(chapterCues([], 60)).toEqual([]);
  });
});
