import { describe, expect, it } from 'vitest';
import { fts5Match, lexemeQuery, tsPrefixQuery, WORDS_PER_PREFIX } from './query-syntax.js';

describe('query strings', () => {
  it('quotes every word for FTS5 and marks it as a prefix', () => {
    expect(fts5Match(['dino', 'rex'])).toBe('"dino"* "rex"*');
    // Words never contain quotes after splitting, but the quoting would still hold if they did.
    expect(fts5Match(['a"b'])).toBe('"a""b"*');
  });

  it('builds a prefix tsquery joined by &', () => {
    expect(tsPrefixQuery(['dino', 'rex'])).toBe("'dino':* & 'rex':*");
    expect(tsPrefixQuery(["o'k"])).toBe("'o''k':*");
  });
});

describe('lexemeQuery', () => {
  it('joins each word’s whole words with | and the words with &, quoting what tsquery input needs', () => {
    expect(lexemeQuery(['gard', 'riv'], [['garden', 'gardens'], ['river']])).toBe("( 'garden' | 'gardens' ) & ( 'river' )");
    expect(lexemeQuery(['don'], [["don't", 'don\\x', 'don-ut']])).toBe("( 'don''t' | 'don\\\\x' | 'don-ut' )");
  });

  it('keeps a word that starts too many words as a prefix', () => {
    const many = Array.from({ length: WORDS_PER_PREFIX + 1 }, (_, i) => `pre${i}`);
    expect(lexemeQuery(['pre', 'x'], [many, ['xylo']])).toBe("'pre':* & ( 'xylo' )");
  });
});
