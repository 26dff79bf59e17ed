/**
 * Turns what a person typed into the search box into a full-text query for either database.
 *
 * The text is split into words the same way both indexes split titles (letters and digits; anything
 * else separates), so quotes, stars, brackets, dashes, colons and words such as OR or NEAR are data:
 * they never reach the query syntax of FTS5 or to_tsquery. Every word matches as a prefix
 * ("dino" finds "dinosaur") and every word must match.
 */
const MAX_WORDS = 16;

export function searchWords(query: string | undefined | null): string[] {
  if (!query) return [];
  const words = query.normalize('NFKC').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return [...new Set(words)].slice(0, MAX_WORDS);
}

/** FTS5 MATCH string: each word a quoted string followed by * (prefix), all required. */
export function fts5Match(words: string[]): string {
  return words.map((w) => `"${w.replace(/"/g, '""')}"*`).join(' ');
}

/** to_tsquery('simple', ...) string: each word as a quoted lexeme with :* (prefix), joined by &. */
export function tsPrefixQuery(words: string[]): string {
  return words.map((w) => `'${w.replace(/\\/g, '\\\\').replace(/'/g, "''")}':*`).join(' & ');
}
