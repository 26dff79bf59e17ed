import { z } from 'zod';

/**
 * Chapters and timestamps written in a video's description, with YouTube's rules, so that the server
 * (which answers `chapters` with the video) and the web client (which links timestamps in
 * descriptions and comments) read text the same way. Pure functions, no dependencies.
 */

/** A chapter: where it starts, in seconds, and its title. */
export const Chapter = z.object({ start: z.number().int().min(0), title: z.string() });
export type Chapter = z.infer<typeof Chapter>;

/** Chapters need at least this many lines. */
export const MIN_CHAPTERS = 3;
/** Every chapter, the last one included (up to the video's end), lasts at least this long. */
export const MIN_CHAPTER_SECONDS = 10;
/** Longer titles are cut (with an ellipsis); the seek bar's preview has little room. */
export const MAX_CHAPTER_TITLE_LENGTH = 100;

/**
 * `m:ss`, `mm:ss` (minutes may run past 59: `75:00`) or `h:mm:ss`. Not part of a longer run of
 * digits, colons or letters, so `12:30pm`, `1:00:00:00`, `v1.2:30` and `16:9` (one digit after the
 * colon) are not timestamps; a colon after one is a separator (`2:00: Bonus`).
 */
const TIMESTAMP = /(?<![\w:.])(?:(\d{1,2}):([0-5]\d):([0-5]\d)|(\d{1,3}):([0-5]\d))(?!\w|:\d)/gu;

/** A timestamp found in text: where it is, what it says, and the second it points at. */
export interface TimestampToken {
  index: number;
  text: string;
  seconds: number;
}

function tokenSeconds(match: RegExpExecArray): number {
  const [, h, hm, hs, m, s] = match;
  if (h !== undefined) return Number(h) * 3600 + Number(hm) * 60 + Number(hs);
  return Number(m) * 60 + Number(s);
}

/** Every timestamp in `text`, in order. */
export function findTimestamps(text: string): TimestampToken[] {
  const tokens: TimestampToken[] = [];
  for (const match of text.matchAll(TIMESTAMP)) {
    tokens.push({ index: match.index, text: match[0], seconds: tokenSeconds(match) });
  }
  return tokens;
}

/** A piece of text: plain, or a timestamp pointing at `seconds`. */
export type TextPart = { kind: 'text'; text: string } | { kind: 'timestamp'; text: string; seconds: number };

/**
 * Splits text into plain runs and timestamps; joining every part's `text` gives `text` back exactly.
 * A timestamp at or past `duration` (when given and positive) stays plain text: it points nowhere.
 */
export function splitTimestamps(text: string, duration?: number): TextPart[] {
  const parts: TextPart[] = [];
  let plain = '';
  let at = 0;
  for (const token of findTimestamps(text)) {
    if (duration !== undefined && duration > 0 && token.seconds >= duration) continue;
    plain += text.slice(at, token.index);
    if (plain) parts.push({ kind: 'text', text: plain });
    plain = '';
    parts.push({ kind: 'timestamp', text: token.text, seconds: token.seconds });
    at = token.index + token.text.length;
  }
  plain += text.slice(at);
  if (plain) parts.push({ kind: 'text', text: plain });
  return parts;
}

// What may stand between a chapter's timestamp and its title, or around the line: spaces, brackets,
// dashes of every width, bars, colons, bullets.
const SEPARATORS = '\\s\\-\\u2010-\\u2015\\u2212|:·•*~>\\[\\](){}';
const LEADING_SEPARATORS = new RegExp(`^[${SEPARATORS}]+`, 'u');
const TRAILING_SEPARATORS = new RegExp(`[${SEPARATORS}]+$`, 'u');
/** Before a leading timestamp only a list marker ("1.", "2)", "-", "•") and brackets may stand. */
const LEADING_PREFIX = new RegExp(`^[${SEPARATORS}]*(?:\\d{1,3}[.)])?[${SEPARATORS}]*$`, 'u');
/** After a trailing timestamp only separators and closing brackets may stand. */
const TRAILING_SUFFIX = new RegExp(`^[${SEPARATORS}.]*$`, 'u');

function cleanTitle(raw: string): string {
  const title = raw.replace(LEADING_SEPARATORS, '').replace(TRAILING_SEPARATORS, '').replace(/\s+/gu, ' ');
  if (title.length <= MAX_CHAPTER_TITLE_LENGTH) return title;
  return `${title.slice(0, MAX_CHAPTER_TITLE_LENGTH - 1).trimEnd()}…`;
}

/**
 * The chapter a line names, or null when the line is ordinary text. A chapter line starts with a
 * timestamp (`0:00 Intro`, `[0:00] Intro`, `1. 0:00 - Intro`) or ends with one (`Intro 0:00`,
 * `Intro - (0:00)`); a timestamp in the middle of a sentence is a reference, not a chapter.
 */
function chapterLine(line: string): Chapter | null {
  const tokens = findTimestamps(line);
  const first = tokens[0];
  if (first && LEADING_PREFIX.test(line.slice(0, first.index))) {
    return { start: first.seconds, title: cleanTitle(line.slice(first.index + first.text.length)) };
  }
  const last = tokens[tokens.length - 1];
  if (last && TRAILING_SUFFIX.test(line.slice(last.index + last.text.length))) {
    return { start: last.seconds, title: cleanTitle(line.slice(0, last.index)) };
  }
  return null;
}

function followsRules(chapters: Chapter[], duration: number | undefined): boolean {
  if (chapters.length < MIN_CHAPTERS || chapters[0]!.start !== 0) return false;
  for (let i = 1; i < chapters.length; i++) {
    if (chapters[i]!.start - chapters[i - 1]!.start < MIN_CHAPTER_SECONDS) return false;
  }
  const last = chapters[chapters.length - 1]!;
  return duration === undefined || duration - last.start >= MIN_CHAPTER_SECONDS;
}

/**
 * A description's chapters, by YouTube's rules: the lines that start or end with a timestamp, the
 * first at 0:00, at least three, in ascending order, each at least ten seconds long. Chapters that
 * start at or past the video's `duration` (when known, i.e. positive) are dropped, and the last one
 * must then also last ten seconds up to the end. When any rule fails there are no chapters at all.
 * A chapter without a title is called "Chapter n".
 */
export function parseChapters(description: string, duration?: number): Chapter[] {
  const known = duration !== undefined && Number.isFinite(duration) && duration > 0 ? duration : undefined;
  const chapters: Chapter[] = [];
  for (const line of description.split(/\r\n|\r|\n/u)) {
    const chapter = chapterLine(line);
    if (chapter) chapters.push(chapter);
  }
  if (!followsRules(chapters, undefined)) return [];
  const kept = known === undefined ? chapters : chapters.filter((chapter) => chapter.start < known);
  if (!followsRules(kept, known)) return [];
  return kept.map((chapter, i) => (chapter.title ? chapter : { ...chapter, title: `Chapter ${i + 1}` }));
}

/** The chapter playing at `seconds`, or null without chapters. */
export function chapterAt(chapters: readonly Chapter[], seconds: number): Chapter | null {
  let current: Chapter | null = null;
  for (const chapter of chapters) {
    if (chapter.start <= seconds) current = chapter;
    else break;
  }
  return current;
}

/** `m:ss`, or `h:mm:ss` from an hour on: how timestamps are written back. */
export function formatTimestamp(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
