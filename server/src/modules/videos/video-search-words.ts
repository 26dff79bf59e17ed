import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/client.js';
import { tsPrefixQuery } from './video-search.js';

/**
 * PostgreSQL: a search's words as a tsquery in which each typed word (a prefix) is written as the
 * whole words of the index it starts (docs/decisions/0038-search-words.md). GIN answers whole words
 * by stepping through their lists together; a prefix it first gathers, every match of every word it
 * starts, into a bitmap, which for two common words cost four to five times as much.
 */

/** A prefix that starts more words than this stays a prefix: spelling them out would cost more. */
export const WORDS_PER_PREFIX = 32;

/** Only plain letters and digits: then the typed word is exactly the lexeme to_tsquery would make. */
const PLAIN = /^[a-z0-9]+$/;

/**
 * The tsquery, or null when one of the words starts no word in the index (nothing can match).
 * Words that are not plain, or a prefix of too many words, keep the prefix form.
 */
export async function searchTsQuery(db: Db, words: string[]): Promise<RawBuilder<unknown> | null> {
  if (!words.length || !words.every((w) => PLAIN.test(w))) return prefixTsQuery(words);
  const rows = await sql<{ i: number; word: string }>`select p.i, s.word
    from unnest(${words}::text[], ${words.map(after)}::text[]) with ordinality as p(lo, hi, i)
    cross join lateral (select word from search_words
      where word >= p.lo collate "C" and word < p.hi collate "C" order by word limit ${WORDS_PER_PREFIX + 1}) s`.execute(db);
  const started: string[][] = words.map(() => []);
  for (const r of rows.rows) started[Number(r.i) - 1]!.push(r.word);
  if (started.some((list) => list.length === 0)) return null;
  return sql`${lexemeQuery(words, started)}::tsquery`;
}

/** The words as prefixes, parsed by PostgreSQL: what every word was before they were spelled out. */
export function prefixTsQuery(words: string[]): RawBuilder<unknown> {
  return sql`to_tsquery('simple', ${tsPrefixQuery(words)})`;
}

/**
 * The tsquery text: each word's whole words joined by |, or the word as a prefix where it starts
 * more than WORDS_PER_PREFIX; the words joined by &. Lexemes are quoted as tsquery input wants.
 */
export function lexemeQuery(words: string[], started: string[][]): string {
  const quote = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  return words.map((w, i) => {
    const list = started[i]!;
    return list.length > WORDS_PER_PREFIX ? `${quote(w)}:*` : `( ${list.map(quote).join(' | ')} )`;
  }).join(' & ');
}

/** The first string after every string starting with `word`, in byte order (plain words only). */
function after(word: string): string {
  return word.slice(0, -1) + String.fromCharCode(word.charCodeAt(word.length - 1) + 1);
}
