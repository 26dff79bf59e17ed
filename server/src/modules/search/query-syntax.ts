/**
 * Search words written in each index's query language: FTS5 MATCH strings for SQLite, to_tsquery
 * input for PostgreSQL. Words come from search-words.ts, and every one is quoted here, so nothing a
 * person typed is ever read as query syntax.
 */

/** FTS5 MATCH string: each word a quoted string followed by * (prefix), all required. */
export function fts5Match(words: readonly string[]): string {
  return words.map((w) => `"${w.replace(/"/g, '""')}"*`).join(' ');
}

/**
 * FTS5 MATCH string of typed words spelled out as the whole words of the index each starts
 * (docs/decisions/0043-newest-first-search.md): each word's whole words joined by OR, or the word
 * as a prefix where `started` has no list for it (not plain, or a prefix of too many words); the
 * words joined by an explicit AND, as FTS5 joins bracketed groups by nothing else.
 */
export function fts5Spelled(words: readonly string[], started: (string[] | null)[]): string {
  return words
    .map((w, i) => {
      const list = started[i];
      return list ? `(${list.map((s) => `"${s.replace(/"/g, '""')}"`).join(' OR ')})` : `"${w.replace(/"/g, '""')}"*`;
    })
    .join(' AND ');
}

/**
 * FTS5 MATCH string matching any of the words, each as a whole word: similarity. Whole words (not
 * prefixes) let FTS5 read each word's list lazily from the newest row and stop, where a prefix
 * merges the lists of every word it starts.
 */
export function fts5AnyWord(words: readonly string[]): string {
  return words.map((w) => `"${w.replace(/"/g, '""')}"`).join(' OR ');
}

/** A lexeme quoted as tsquery input wants it. */
function tsLexeme(word: string): string {
  return `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/**
 * to_tsquery('simple', ...) string: each word as a quoted lexeme with :* (prefix), joined by &;
 * `weights` (such as 'A' for the title) narrows each word to those parts of the text.
 */
export function tsPrefixQuery(words: readonly string[], weights = ''): string {
  return words.map((w) => `${tsLexeme(w)}:*${weights}`).join(' & ');
}

/** to_tsquery('simple', ...) string matching any of the words, each as a whole word. */
export function tsAnyWord(words: readonly string[]): string {
  return words.map(tsLexeme).join(' | ');
}

/** A prefix that starts more words than this stays a prefix: spelling them out would cost more. */
export const WORDS_PER_PREFIX = 32;

/**
 * The tsquery text of typed words spelled out as the whole words of the index each starts
 * (docs/decisions/0038-search-words.md): each word's whole words joined by |, or the word as a
 * prefix where it starts more than WORDS_PER_PREFIX; the words joined by &.
 */
export function lexemeQuery(words: string[], started: string[][]): string {
  return words
    .map((w, i) => {
      const list = started[i]!;
      return list.length > WORDS_PER_PREFIX ? `${tsLexeme(w)}:*` : `( ${list.map(tsLexeme).join(' | ')} )`;
    })
    .join(' & ');
}
