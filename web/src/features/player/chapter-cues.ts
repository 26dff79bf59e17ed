import type { Chapter } from '@reelhouse/contract';

/** A cue of vidstack's JSON text-track content. */
export interface ChapterCue {
  startTime: number;
  endTime: number;
  text: string;
}

/**
 * The video's chapters as the cues of a chapters text track: each runs until the next starts, the
 * last until the end. Given as JSON content rather than a WebVTT file so that no blob or data URL
 * is needed (the Content-Security-Policy allows neither for media).
 */
export function chapterCues(chapters: readonly Chapter[], duration: number): ChapterCue[] {
  return chapters.map((chapter, i) => ({
    startTime: chapter.start,
    endTime: chapters[i + 1]?.start ?? Math.max(duration, chapter.start),
    text: chapter.title,
  }));
}
