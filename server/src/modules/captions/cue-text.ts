/**
 * Cleans a cue's text. Browsers render WebVTT cue text through their own cue parser, not as HTML,
 * but a caption file is also read by other players, by the transcript and by anyone who downloads
 * it, so what is stored holds nothing but text and WebVTT's own tags: b, i, u, c (with classes),
 * v (a speaker), lang, ruby, rt and timestamps. Every other tag is dropped with its text kept,
 * script and style elements are dropped with their content, entities are decoded and the text is
 * escaped again (only &amp;, &lt; and &gt; remain), and tags are balanced.
 */

const KEPT_TAGS = new Set(['b', 'i', 'u', 'c', 'v', 'lang', 'ruby', 'rt']);
/** Elements whose content is code, not words: dropped whole. */
const DROPPED_WITH_CONTENT = new Set(['script', 'style']);
const CLASS_NAME = /^[A-Za-z0-9_-]{1,40}$/;
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;
const TIMESTAMP = /^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/;

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  lrm: '\u200e',
  rlm: '\u200f',
};

export function escapeCueText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Entities to characters; unknown ones stay as they were written (and are escaped afterwards). */
function decodeEntities(text: string): string {
  return text.replace(/&(#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/g, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      // Control characters and NUL have no place in a caption.
      if (code < 0x20 && code !== 0x0a && code !== 0x09) return '';
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '';
      return String.fromCodePoint(code);
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const text = (raw: string) => escapeCueText(decodeEntities(raw));

export function sanitiseCueText(raw: string): string {
  // SSA/ASS override codes ({\an8}, {\i1}) that some SRT files carry mean nothing to a browser.
  const input = raw.replace(/\{\\[^}\n]*\}/g, '');
  let out = '';
  const open: string[] = [];
  let i = 0;
  while (i < input.length) {
    const lt = input.indexOf('<', i);
    if (lt === -1) {
      out += text(input.slice(i));
      break;
    }
    out += text(input.slice(i, lt));
    const gt = input.indexOf('>', lt + 1);
    // "<" not followed by a tag name, a closing slash or a timestamp is text ("1 < 2").
    if (gt === -1 || !/[A-Za-z0-9/]/.test(input[lt + 1] ?? '')) {
      if (gt !== -1) {
        out += '&lt;';
        i = lt + 1;
        continue;
      }
      out += text(input.slice(lt));
      break;
    }
    const inner = input.slice(lt + 1, gt);
    i = gt + 1;
    const closing = /^\/\s*([A-Za-z][\w-]*)\s*$/.exec(inner);
    if (closing) {
      const name = closing[1]!.toLowerCase();
      const at = open.lastIndexOf(name);
      if (at !== -1) {
        while (open.length > at) out += `</${open.pop()}>`;
      }
      continue;
    }
    const stamp = TIMESTAMP.exec(inner.trim());
    if (stamp) {
      out += `<${stamp[1] ?? '00'}:${stamp[2]}:${stamp[3]}.${stamp[4]}>`;
      continue;
    }
    const opening = /^([A-Za-z][\w-]*)((?:\.[^\s.]*)*)(?:[ \t\n]+([\s\S]*))?$/.exec(inner);
    if (!opening) continue;
    const name = opening[1]!.toLowerCase();
    if (DROPPED_WITH_CONTENT.has(name)) {
      const end = input.toLowerCase().indexOf(`</${name}`, i);
      if (end === -1) break;
      const close = input.indexOf('>', end);
      i = close === -1 ? input.length : close + 1;
      continue;
    }
    if (!KEPT_TAGS.has(name)) continue;
    if (name === 'rt' && !open.includes('ruby')) continue;
    const classes = (opening[2] ?? '').split('.').filter((c) => CLASS_NAME.test(c));
    const annotation = (opening[3] ?? '').replace(/\s+/g, ' ').trim();
    let tag = name + classes.map((c) => `.${c}`).join('');
    if (name === 'v' && annotation) tag += ` ${text(annotation).slice(0, 100)}`;
    if (name === 'lang') {
      if (!LANGUAGE_TAG.test(annotation)) continue;
      tag += ` ${annotation}`;
    }
    open.push(name);
    out += `<${tag}>`;
  }
  while (open.length) out += `</${open.pop()}>`;
  // Blank lines would end the cue in the written file; trailing spaces are noise.
  return out
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '')
    .join('\n');
}

/** The words of a sanitised cue: tags removed, the three escapes undone, white space collapsed. */
export function plainCueText(sanitised: string): string {
  return sanitised
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
