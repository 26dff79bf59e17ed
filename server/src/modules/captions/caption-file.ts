import { sanitiseCueText, plainCueText } from './cue-text.js';

/**
 * Reads an uploaded caption file (WebVTT or SRT) into cues and writes it back as a clean WebVTT
 * file. Nothing of the upload is passed through as it came: the header text, NOTE, STYLE and REGION
 * blocks and cue identifiers are dropped, cue settings are kept only when they are well-formed and
 * name no region, and cue text keeps only WebVTT's own harmless tags (see cue-text.ts).
 */

export interface Cue {
  /** Seconds. */
  start: number;
  end: number;
  /** WebVTT cue settings, re-written from the known ones ("" when none). */
  settings: string;
  /** Sanitised cue payload (WebVTT markup). */
  text: string;
  /** The words alone, for search and the transcript. */
  plain: string;
}

export interface CaptionLimits {
  maxCues: number;
  /** The video's duration in seconds; cues must start before it plus some slack. */
  durationSeconds: number;
}

/** Why a caption file was refused: a message for the person who sent it. */
export class CaptionFileError extends Error {
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
    this.name = 'CaptionFileError';
  }
}

/** Cues may run this far past the end of the video (players and encoders trim the tail differently). */
export const DURATION_SLACK_SECONDS = 60;

export function parseCaptionFile(bytes: Buffer, limits: CaptionLimits): { format: 'vtt' | 'srt'; cues: Cue[] } {
  const text = decodeText(bytes);
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first === -1) throw new CaptionFileError('The caption file is empty');
  const isVtt = /^WEBVTT([ \t].*)?$/.test(lines[first]!.trimEnd());
  if (!isVtt && !lines.some((l) => l.includes('-->'))) {
    throw new CaptionFileError('The file is neither WebVTT (it starts with WEBVTT) nor SRT (numbered cues with "00:00:01,000 --> 00:00:02,000" times)');
  }
  const cues = readCues(lines, isVtt ? 'vtt' : 'srt', isVtt ? first + 1 : first, limits);
  if (cues.length === 0) throw new CaptionFileError('The caption file has no cue with text');
  return { format: isVtt ? 'vtt' : 'srt', cues };
}

/** The cues as a WebVTT file. */
export function writeWebVtt(cues: Cue[]): string {
  const blocks = cues.map((c) => `${formatTimestamp(c.start)} --> ${formatTimestamp(c.end)}${c.settings ? ` ${c.settings}` : ''}\n${c.text}`);
  return `WEBVTT\n\n${blocks.join('\n\n')}\n`;
}

export function formatTimestamp(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/**
 * UTF-8 text, or Windows-1252 for the many old SRT files written in it. Bytes that no text file
 * holds (NUL, most control characters) mean a binary file: an image or a video is refused here.
 */
function decodeText(bytes: Buffer): string {
  if (bytes.length === 0) throw new CaptionFileError('The caption file is empty');
  let controls = 0;
  for (const b of bytes) {
    if (b === 0) throw new CaptionFileError('The caption file is binary, not text: send a WebVTT (.vtt) or SRT (.srt) file');
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) controls++;
  }
  if (controls > 0) throw new CaptionFileError('The caption file is binary, not text: send a WebVTT (.vtt) or SRT (.srt) file');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

const VTT_TIME = /^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/;
const SRT_TIME = /^(\d{1,3}):([0-5]?\d):([0-5]?\d)[,.](\d{1,3})$/;

function parseTime(raw: string, format: 'vtt' | 'srt'): number | null {
  const m = (format === 'vtt' ? VTT_TIME : SRT_TIME).exec(raw);
  if (!m) return null;
  const ms = format === 'srt' ? Number(m[4]!.padEnd(3, '0')) : Number(m[4]);
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) + ms / 1000;
}

const TIMING = /^(\S+)[ \t]+-->[ \t]+(\S+)(.*)$/;

function readCues(lines: string[], format: 'vtt' | 'srt', from: number, limits: CaptionLimits): Cue[] {
  const cues: Cue[] = [];
  const latest = limits.durationSeconds + DURATION_SLACK_SECONDS;
  let i = from;
  // The WebVTT header may go on for several lines until the first blank one.
  if (format === 'vtt') while (i < lines.length && lines[i]!.trim() !== '') i++;
  while (i < lines.length) {
    if (lines[i]!.trim() === '') {
      i++;
      continue;
    }
    const blockStart = i;
    const block: string[] = [];
    while (i < lines.length && lines[i]!.trim() !== '') block.push(lines[i++]!);
    const head = block[0]!.trim();
    // NOTE comments, STYLE sheets and REGION definitions are left out of the clean file.
    if (format === 'vtt' && /^(NOTE|STYLE|REGION)([ \t]|$)/.test(head)) continue;
    const timingAt = block.findIndex((l) => l.includes('-->'));
    if (timingAt === -1 || timingAt > 1) {
      throw new CaptionFileError(
        `Line ${blockStart + 1}: a cue must start with its times, e.g. "00:00:01${format === 'srt' ? ',' : '.'}000 --> 00:00:04${format === 'srt' ? ',' : '.'}000"`,
      );
    }
    const lineNo = blockStart + timingAt + 1;
    const timing = TIMING.exec(block[timingAt]!.trim());
    const start = timing ? parseTime(timing[1]!, format) : null;
    const end = timing ? parseTime(timing[2]!, format) : null;
    if (start === null || end === null)
      throw new CaptionFileError(`Line ${lineNo}: the cue's times are not valid ${format === 'vtt' ? 'WebVTT (hh:mm:ss.ttt)' : 'SRT (hh:mm:ss,ttt)'} times`);
    if (end <= start) throw new CaptionFileError(`Line ${lineNo}: the cue ends before it starts`);
    const previous = cues[cues.length - 1];
    if (previous && start < previous.start) throw new CaptionFileError(`Line ${lineNo}: cues must be in time order; this one starts before the one above it`);
    if (start > latest) throw new CaptionFileError(`Line ${lineNo}: the cue starts at ${formatTimestamp(start)}, after the end of the video`);
    const payload = block.slice(timingAt + 1);
    // A line holding "-->" inside a payload would start a new cue for a browser; such a file is broken.
    if (payload.some((l) => l.includes('-->'))) throw new CaptionFileError(`Line ${lineNo}: a cue's text must not contain "-->"`);
    const text = sanitiseCueText(payload.join('\n'));
    const plain = plainCueText(text);
    if (!plain) continue;
    if (cues.length >= limits.maxCues) throw new CaptionFileError(`The caption file has more than ${limits.maxCues} cues`, true);
    cues.push({ start, end: Math.min(end, latest), settings: format === 'vtt' ? cueSettings(timing![3]!) : '', text, plain });
  }
  return cues;
}

const SETTINGS: Record<string, RegExp> = {
  vertical: /^(rl|lr)$/,
  line: /^(-?\d{1,3}|\d{1,3}(\.\d+)?%)(,(start|center|end))?$/,
  position: /^\d{1,3}(\.\d+)?%(,(line-left|center|line-right))?$/,
  size: /^\d{1,3}(\.\d+)?%$/,
  align: /^(start|center|end|left|right)$/,
};

/** Known, well-formed cue settings only; `region:` and anything unknown are dropped. */
function cueSettings(raw: string): string {
  const kept = new Map<string, string>();
  for (const item of raw.trim().split(/[ \t]+/)) {
    const at = item.indexOf(':');
    if (at <= 0) continue;
    const name = item.slice(0, at);
    const value = item.slice(at + 1);
    if (SETTINGS[name]?.test(value)) kept.set(name, value);
  }
  return [...kept].map(([k, v]) => `${k}:${v}`).join(' ');
}
