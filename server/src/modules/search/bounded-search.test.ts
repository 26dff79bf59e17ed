import { describe, expect, it } from 'vitest';
import { blocksOfPage, estimate, estimatedTotal, pageByRelevance, walkOrMatches } from './bounded-search.js';

describe('estimate', () => {
  it('is exact up to the cap and scales the newest share of the catalogue above it', () => {
    expect(estimate(5, 5, 10, 100)).toEqual({ matches: 5, total: 5 });
    expect(estimate(6, 5, 10, 100)).toEqual({ matches: 6, total: 60 });
    // Never below what was counted, whatever the spans say.
    expect(estimate(6, 5, 0, 0)).toEqual({ matches: 6, total: 6 });
    expect(estimate(6, 5, 10, 5)).toEqual({ matches: 6, total: 6 });
  });
});

describe('blocksOfPage', () => {
  it('reads the block the page falls in, and the next one when the page or the row after it crosses into it', () => {
    expect(blocksOfPage(0, 2, 3)).toEqual({ skip: 0, take: 3 });
    expect(blocksOfPage(2, 2, 3)).toEqual({ skip: 0, take: 6 });
    expect(blocksOfPage(3, 2, 3)).toEqual({ skip: 3, take: 3 });
  });
});

describe('pageByRelevance', () => {
  it('orders each block by tier then recency, keeps blocks in order, and answers the page and one more', () => {
    const c = (id: string, created_at: number, tier: number) => ({ id, created_at, tier });
    // Newest first, as the index gives them; blocks of 2: [f e] [d c] [b].
    const candidates = [c('f', 6, 2), c('e', 5, 0), c('d', 4, 1), c('c', 3, 0), c('b', 2, 2)];
    expect(pageByRelevance(candidates, 0, 0, 4, 2)).toEqual(['e', 'f', 'c', 'd', 'b']);
    expect(pageByRelevance(candidates.slice(2), 2, 3, 1, 2)).toEqual(['d', 'b']);
  });
});

describe('walkOrMatches', () => {
  it('walks the sort index when the matches are common enough for it to read fewer videos', () => {
    expect(walkOrMatches(0, 9, { matches: 1001, total: 50_000, listed: 100_000 })).toBe('walk');
    expect(walkOrMatches(0, 9, { matches: 1001, total: 1_001, listed: 100_000_000 })).toBe('matches first');
  });
});

describe('estimatedTotal', () => {
  it('never contradicts the page: more after a full page, the end after a short or empty one', () => {
    const count = { matches: 6, total: 60, listed: 100 };
    expect(estimatedTotal(count, 0, 2, true)).toBe(60);
    expect(estimatedTotal({ ...count, total: 6 }, 10, 2, true)).toBe(13);
    expect(estimatedTotal(count, 4, 1, false)).toBe(5);
    expect(estimatedTotal(count, 20, 0, false)).toBe(6);
  });
});
