/**
 * The words of a search, and of a video's text, as both full-text indexes split them.
 *
 * The text is split into words the same way both indexes split titles (letters and digits; anything
 * else separates), so quotes, stars, brackets, dashes, colons and words such as OR or NEAR are data:
 * they never reach the query syntax of FTS5 or to_tsquery (query-syntax.ts). Every word matches as a
 * prefix ("dino" finds "dinosaur") and every word must match.
 */
const MAX_WORDS = 16;

/** What a person typed into the search box, as the words to find. */
export function searchWords(query: string | undefined | null): string[] {
  if (!query) return [];
  const words = query
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return [...new Set(words)].slice(0, MAX_WORDS);
}

/**
 * Words that say little about what a video is about; left out when looking for similar videos, so
 * that "the" in two titles does not make them related.
 */
const COMMON_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'for',
  'from',
  'how',
  'in',
  'is',
  'it',
  'my',
  'of',
  'on',
  'or',
  'our',
  'the',
  'this',
  'to',
  'with',
  'you',
  'your',
  'video',
  'new',
  'part',
]);

/** The words of a text that say what it is about, for a similarity search: at most `max`. */
export function topicWords(text: string, max = 12): string[] {
  return searchWords(text)
    .filter((w) => w.length > 2 && !COMMON_WORDS.has(w))
    .slice(0, max);
}

/**
 * The words of a text as SQLite's FTS5 index (unicode61, remove_diacritics 2) splits them: letters,
 * digits and private-use characters make words, anything else separates; case is folded and a Latin
 * letter loses its diacritic ("é" is "e"), as the index does.
 */
export function indexWords(text: string): string[] {
  // Most text is ASCII, where folding is lower-casing.
  if (/^\p{ASCII}*$/u.test(text))
    return text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
  const folded = [...text.normalize('NFC').toLowerCase()]
    .map((c) => {
      const base = c.normalize('NFD')[0]!;
      return c.length === 1 && base !== c && /[a-z]/.test(base) ? base : c;
    })
    .join('');
  return folded.split(/[^\p{L}\p{N}\p{Co}]+/u).filter(Boolean);
}

/** Does a video's text hold every search word as the start of one of its words, as the index would say? */
export function textMatches(texts: string[], words: string[]): boolean {
  const lower = texts.join(' ').toLowerCase();
  // A plain word that is nowhere in the text cannot start one of its words: no need to split it.
  // (Only in ASCII text: elsewhere "é" may still be the "e" searched for.)
  if (/^\p{ASCII}*$/u.test(lower) && words.some((w) => /^[a-z0-9]+$/.test(w) && !lower.includes(w))) return false;
  const have = texts.flatMap(indexWords);
  return words.every((w) => {
    const want = indexWords(w);
    return want.length > 0 && want.every((part) => have.some((h) => h.startsWith(part)));
  });
}
