import { chapterAt, findTimestamps, formatTimestamp, MAX_CHAPTER_TITLE_LENGTH, parseChapters, splitTimestamps } from '@reelhouse/contract';
import { describe, expect, it } from 'vitest';

// The parser lives in the contract so the web client reads descriptions by the same rule; the
// server is where GET /videos/{id} answers with its result, so its rules are pinned down here.

const lines = (...rows: string[]) => rows.join('\n');

describe('parseChapters: YouTube rules', () => {
  it('reads lines that start with a timestamp, the first at 0:00', () => {
    expect(parseChapters(lines('0:00 Intro', '0:15 Setup', '1:30 The build', '10:00 Wrap up'), 900)).toEqual([
      { start: 0, title: 'Intro' },
      { start: 15, title: 'Setup' },
      { start: 90, title: 'The build' },
      { start: 600, title: 'Wrap up' },
    ]);
  });

  it('ignores the text around the chapter lines', () => {
    const description = lines(
      'A walk through the old quarry.',
      '',
      'Chapters:',
      '0:00 Arrival',
      '0:20 The cliff',
      '0:45 Fossils',
      '',
      'Thanks for watching! We talk about the 1:30 train in the end.',
    );
    expect(parseChapters(description, 120)).toEqual([
      { start: 0, title: 'Arrival' },
      { start: 20, title: 'The cliff' },
      { start: 45, title: 'Fossils' },
    ]);
  });

  it('needs the first chapter at 0:00', () => {
    expect(parseChapters(lines('0:05 Intro', '0:20 Middle', '0:40 End'), 60)).toEqual([]);
  });

  it('needs at least three chapters', () => {
    expect(parseChapters(lines('0:00 Intro', '0:20 End'), 60)).toEqual([]);
    expect(parseChapters(lines('0:00 Intro', '0:20 Middle', '0:40 End'), 60)).toHaveLength(3);
  });

  it('needs every chapter to last at least ten seconds', () => {
    expect(parseChapters(lines('0:00 Intro', '0:09 Too short', '0:40 End'), 60)).toEqual([]);
    expect(parseChapters(lines('0:00 Intro', '0:10 Just long enough', '0:20 End'), 60)).toHaveLength(3);
  });

  it('needs ascending times', () => {
    expect(parseChapters(lines('0:00 Intro', '0:40 Later', '0:20 Earlier'), 60)).toEqual([]);
    expect(parseChapters(lines('0:00 Intro', '0:20 Same', '0:20 Same again', '0:40 End'), 60)).toEqual([]);
  });

  it('has no chapters in a description without timestamps', () => {
    expect(parseChapters('Just a description.', 60)).toEqual([]);
    expect(parseChapters('', 60)).toEqual([]);
  });
});

describe("parseChapters: the video's duration", () => {
  it('drops chapters that start at or after the end', () => {
    expect(parseChapters(lines('0:00 A', '0:20 B', '0:40 C', '1:00 D', '5:00 E'), 60)).toEqual([
      { start: 0, title: 'A' },
      { start: 20, title: 'B' },
      { start: 40, title: 'C' },
    ]);
  });

  it('has none when dropping leaves too few', () => {
    expect(parseChapters(lines('0:00 A', '0:20 B', '2:00 C'), 60)).toEqual([]);
  });

  it('has none when the last chapter would end less than ten seconds before the end', () => {
    expect(parseChapters(lines('0:00 A', '0:20 B', '0:55 C'), 60)).toEqual([]);
    expect(parseChapters(lines('0:00 A', '0:20 B', '0:50 C'), 60)).toHaveLength(3);
  });

  it('keeps every chapter when the duration is not known yet', () => {
    expect(parseChapters(lines('0:00 A', '0:20 B', '9:00 C'))).toHaveLength(3);
    expect(parseChapters(lines('0:00 A', '0:20 B', '9:00 C'), 0)).toHaveLength(3);
  });
});

describe('parseChapters: formats', () => {
  it('reads h:mm:ss, leading zeros and mixed forms', () => {
    expect(parseChapters(lines('00:00 Intro', '05:30 Part one', '1:02:03 Part two', '01:30:00 Part three'), 7200)).toEqual([
      { start: 0, title: 'Intro' },
      { start: 330, title: 'Part one' },
      { start: 3723, title: 'Part two' },
      { start: 5400, title: 'Part three' },
    ]);
    expect(parseChapters(lines('0:00:00 A', '0:00:30 B', '0:01:00 C'), 120).map((c) => c.start)).toEqual([0, 30, 60]);
  });

  it('reads timestamps in brackets and after a list marker', () => {
    expect(parseChapters(lines('[0:00] Intro', '(0:30) Middle', '[1:00]End'), 120).map((c) => c.title)).toEqual(['Intro', 'Middle', 'End']);
    expect(parseChapters(lines('1. 0:00 Intro', '2. 0:30 Middle', '3) 1:00 End'), 120).map((c) => c.title)).toEqual(['Intro', 'Middle', 'End']);
    expect(parseChapters(lines('- 0:00 Intro', '• 0:30 Middle', '* 1:00 End'), 120).map((c) => c.title)).toEqual(['Intro', 'Middle', 'End']);
  });

  it('drops separators between the timestamp and the title, unicode dashes included', () => {
    expect(parseChapters(lines('0:00 - Intro', '0:30 – Middle', '1:00 — End', '1:30 | Credits', '2:00: Bonus'), 180).map((c) => c.title)).toEqual([
      'Intro',
      'Middle',
      'End',
      'Credits',
      'Bonus',
    ]);
  });

  it('reads trailing timestamps', () => {
    expect(parseChapters(lines('Intro 0:00', 'Middle - 0:30', 'End (1:00)', 'Credits: [1:30].'), 120)).toEqual([
      { start: 0, title: 'Intro' },
      { start: 30, title: 'Middle' },
      { start: 60, title: 'End' },
      { start: 90, title: 'Credits' },
    ]);
  });

  it('reads CRLF and CR line ends', () => {
    expect(parseChapters('0:00 Intro\r\n0:30 Middle\r\n1:00 End\r\n', 120).map((c) => c.title)).toEqual(['Intro', 'Middle', 'End']);
    expect(parseChapters('0:00 Intro\r0:30 Middle\r1:00 End', 120).map((c) => c.title)).toEqual(['Intro', 'Middle', 'End']);
  });

  it('trims titles, collapses their spaces and keeps their own punctuation', () => {
    expect(parseChapters(lines('0:00    Intro:   what  and why?  ', '0:30\tC++ - the basics', '1:00 Q&A'), 120).map((c) => c.title)).toEqual([
      'Intro: what and why?',
      'C++ - the basics',
      'Q&A',
    ]);
  });

  it('caps long titles and names untitled chapters', () => {
    const chapters = parseChapters(lines(`0:00 ${'x'.repeat(300)}`, '0:30', '1:00 End'), 120);
    expect(chapters[0]!.title).toHaveLength(MAX_CHAPTER_TITLE_LENGTH);
    expect(chapters[0]!.title.endsWith('…')).toBe(true);
    expect(chapters[1]!.title).toBe('Chapter 2');
  });

  it('does not take times of day, ratios or longer colon runs for timestamps', () => {
    expect(parseChapters(lines('0:00 Intro', '12:30pm lunch', '0:30 Middle', '1:2:3 no', '1:00:00:00 no', '1:00 End'), 120).map((c) => c.start)).toEqual([
      0, 30, 60,
    ]);
  });

  it('treats a timestamp inside a sentence as a reference, not a chapter line', () => {
    expect(parseChapters(lines('0:00 Intro', 'see 0:10 for the setup', '0:30 Middle', '1:00 End'), 120).map((c) => c.start)).toEqual([0, 30, 60]);
  });
});

describe('findTimestamps and splitTimestamps', () => {
  it('finds every timestamp with its place and seconds', () => {
    expect(findTimestamps('at 1:05 and 1:02:03, not 1:5 or 12:30pm')).toEqual([
      { index: 3, text: '1:05', seconds: 65 },
      { index: 12, text: '1:02:03', seconds: 3723 },
    ]);
  });

  it('splits text into plain runs and timestamps that join back to the same text', () => {
    const text = 'Jump to 0:30, then 1:02:03!\n<b>2:00</b>';
    const parts = splitTimestamps(text);
    expect(parts.map((p) => p.text).join('')).toBe(text);
    expect(parts.filter((p) => p.kind === 'timestamp').map((p) => (p.kind === 'timestamp' ? p.seconds : -1))).toEqual([30, 3723, 120]);
  });

  it('leaves timestamps at or past the duration as plain text', () => {
    expect(splitTimestamps('0:30 and 2:00', 60)).toEqual([
      { kind: 'timestamp', text: '0:30', seconds: 30 },
      { kind: 'text', text: ' and 2:00' },
    ]);
  });

  it('finds the chapter at a time and writes timestamps back', () => {
    const chapters = [
      { start: 0, title: 'A' },
      { start: 30, title: 'B' },
      { start: 60, title: 'C' },
    ];
    expect(chapterAt(chapters, 0)?.title).toBe('A');
    expect(chapterAt(chapters, 45)?.title).toBe('B');
    expect(chapterAt(chapters, 999)?.title).toBe('C');
    expect(chapterAt([], 10)).toBeNull();
    expect([0, 65, 600, 3723].map(formatTimestamp)).toEqual(['0:00', '1:05', '10:00', '1:02:03']);
  });
});
