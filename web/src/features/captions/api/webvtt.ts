export interface TranscriptCue {
  /** Seconds. */
  start: number;
  end: number;
  /** The words, without markup. */
  text: string;
}

const TIME = /^(?:(\d+):)?(\d{2}):(\d{2})\.(\d{3})$/;

function seconds(raw: string): number | null {
  const m = TIME.exec(raw);
  if (!m) return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&nbsp;': '\u00a0', '&lrm;': '', '&rlm;': '' };

/**
 * The cues of a WebVTT file as the server writes it (a header, then blocks of a timing line and
 * text): enough for a transcript. Tags are removed; text is never read as HTML.
 */
export function parseWebVtt(text: string): TranscriptCue[] {
  const cues: TranscriptCue[] = [];
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines = block.split('\n');
    const at = lines.findIndex((l) => l.includes('-->'));
    if (at === -1) continue;
    const [from, rest = ''] = lines[at]!.split('-->');
    const start = seconds(from!.trim());
    const end = seconds(rest.trim().split(/\s+/)[0] ?? '');
    if (start === null || end === null) continue;
    const words = lines
      .slice(at + 1)
      .join(' ')
      .replace(/<[^>]*>/g, '')
      .replace(/&(amp|lt|gt|nbsp|lrm|rlm);/g, (e) => ENTITIES[e] ?? e)
      .replace(/\s+/g, ' ')
      .trim();
    if (words) cues.push({ start, end, text: words });
  }
  return cues;
}

/** The cue playing at `time`: the last one started at or before it, while it lasts. */
export function activeCueIndex(cues: TranscriptCue[], time: number): number {
  let found = -1;
  for (let i = 0; i < cues.length && cues[i]!.start <= time; i++) {
    if (time < cues[i]!.end) found = i;
  }
  return found;
}
