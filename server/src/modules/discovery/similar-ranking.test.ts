import { describe, expect, it } from 'vitest';
import type { SimilarMatch } from '../search/search-strategy.js';
import { COMMON_MIN_MATCHES, commonWords, expectedMatches, fewMatches, rankSimilar, wordShares } from './similar-ranking.js';

const match = (id: string, title: string, description = '', owner = 'someone'): SimilarMatch => ({ id, title, description, owner_text: owner });

describe('wordShares and commonWords', () => {
  it("estimates a word's share of the catalogue from the span the block covers, as whole words", () => {
    const rows = [match('a', 'Cats at play'), match('b', 'Catalogue of cats'), match('c', 'Dogs', 'with cats')];
    const shares = wordShares(['cats', 'dogs', 'cat'], { rows, span: 30, listed: 1_000 });
    expect(shares.get('cats')).toBeCloseTo(3 / 30);
    expect(shares.get('dogs')).toBeCloseTo(1 / 30);
    // "cat" is only the start of words here: not a match of the whole word.
    expect(shares.get('cat')).toBe(0);
  });

  it('finds a word common when it is in more than 5% of the span and in more than a few dozen videos', () => {
    const many = COMMON_MIN_MATCHES + 10;
    const rows = Array.from({ length: many }, (_, i) => match(`v${i}`, `Live music ${i}`, i < 3 ? 'bagpipes' : ''));
    // The same share of a small site: no word is common there.
    expect(commonWords(['live', 'bagpipes'], { rows: rows.slice(0, 10), span: 20, listed: 1_000 })).toEqual([]);
    expect(commonWords(['live', 'bagpipes'], { rows, span: many * 4, listed: 1_000 })).toEqual(['live']);
    expect(commonWords(['live', 'bagpipes'], { rows, span: many * 40, listed: 1_000 })).toEqual([]);
  });

  it('expects the words to match their shares of the listed videos, summed', () => {
    const rows = [match('a', 'Cats at play'), match('b', 'Dogs and cats')];
    expect(expectedMatches(['cats', 'dogs'], { rows, span: 20, listed: 1_000 })).toBeCloseTo(150);
    // 150 matches: reading them beats checking about 200 x 1,000 / 150 videos; not so with 10 times fewer listed.
    expect(fewMatches(['cats', 'dogs'], { rows, span: 20, listed: 1_000 }, 200)).toBe(true);
    expect(fewMatches(['cats', 'dogs'], { rows, span: 2, listed: 1_000 }, 200)).toBe(false);
  });

  it('reads diacritics and case the way the search index does', () => {
    const shares = wordShares(['cafe'], { rows: [match('a', 'CAFÉ Society')], span: 10, listed: 1_000 });
    expect(shares.get('cafe')).toBeCloseTo(0.1);
  });
});

describe('rankSimilar', () => {
  it('ranks rarer words above common ones, and the title above the channel name above the description', () => {
    const rows = [
      match('desc-rare', 'Evening', 'a zither solo'),
      match('title-common', 'Guitar lesson'),
      match('title-rare', 'Zither tuning'),
      match('owner-rare', 'Evening', '', 'zither people'),
      ...Array.from({ length: 20 }, (_, i) => match(`g${i}`, `more guitar ${i}`)),
    ];
    const ranked = rankSimilar(['zither', 'guitar'], { rows, span: 100, listed: 1_000 }, 5);
    expect(ranked.slice(0, 3)).toEqual(['title-rare', 'owner-rare', 'title-common']);
    expect(ranked).toHaveLength(5);
    expect(ranked).not.toContain('desc-rare');
  });

  it("keeps the block's order (newest first) between equals and leaves out what holds none of the words", () => {
    const rows = [match('new', 'Kayak trip'), match('none', 'Something else'), match('old', 'Kayak trip')];
    expect(rankSimilar(['kayak'], { rows, span: 3, listed: 1_000 }, 20)).toEqual(['new', 'old']);
    expect(rankSimilar([], { rows, span: 3, listed: 1_000 }, 20)).toEqual([]);
  });
});
