/**
 * The arithmetic of a search over the whole site (docs/decisions/0032-bounded-search.md), apart
 * from the database: it never ranks, sorts or counts every match. It counts up to a cap, ranks
 * only the blocks of newest matches a page falls in, and an explicit sort walks the sort column's
 * index and stops at the page when that reads fewer videos.
 */

/**
 * How much a search over the whole site reads.
 * - `window`: matches are taken newest first in blocks of this many; relevance orders each block.
 * - `exactUpTo`: matches are counted exactly up to this many; above it the total is an estimate.
 */
export interface SearchLimits {
  window: number;
  exactUpTo: number;
}

export const SEARCH_LIMITS: SearchLimits = { window: 200, exactUpTo: 1_000 };

/** The matches counted (up to one past the cap), the total answered, and the listed videos. */
export interface MatchCount {
  matches: number;
  total: number;
  listed: number;
}

/** One of the newest matches, with what orders it within its block. */
export interface Candidate {
  id: string;
  created_at: number;
  /** 0: every word in the title; 1: every word in the title or the channel's name; 2: elsewhere too. */
  tier: number;
}

/** How an explicit sort finds its page: walking the sort index, or finding the matches first. */
export type SortRead = 'walk' | 'matches first';

/**
 * Exact up to the cap. Above it: the counted matches cover the newest `windowSpan` of `allSpan`
 * (row ids on SQLite, upload times on PostgreSQL), and the rest is taken to match as often.
 */
export function estimate(n: number, cap: number, windowSpan: number, allSpan: number): { matches: number; total: number } {
  if (n <= cap) return { matches: n, total: n };
  const share = windowSpan > 0 && allSpan > windowSpan ? allSpan / windowSpan : 1;
  return { matches: n, total: Math.max(n, Math.round(n * share)) };
}

/** How many times the cap an estimate must be for the total to be taken from it uncounted. */
export const ESTIMATE_TRUSTED_ABOVE = 4;

/**
 * The total of a search from the index's statistics alone, or null when the matches must be
 * counted: only when the words' counts (taken as independent) and the density of the newest
 * matches both put it far above the cap. The density is the answer: it is what the counted total
 * was scaled by, and the counts of independent words mislead about words that go together.
 */
export function trustedEstimate(cap: number, byCounts: number, byDensity: number): number | null {
  const above = cap * ESTIMATE_TRUSTED_ABOVE;
  return byCounts > above && byDensity > above ? byDensity : null;
}

/** The blocks a page (and the row after it) falls in: how many matches to skip and to take. */
export function blocksOfPage(offset: number, limit: number, window: number): { skip: number; take: number } {
  const first = Math.floor(offset / window);
  const last = Math.floor((offset + limit) / window);
  return { skip: first * window, take: (last - first + 1) * window };
}

/**
 * Relevance order of the candidates read from `skip` on: blocks come in order, and within a block
 * videos with every word in the title come first, then those with every word in the title or the
 * channel's name, then the rest, each group newest first. The page's ids and the one after it.
 * Pages stay disjoint because a block's order never depends on the page asked for.
 */
export function pageByRelevance(candidates: Candidate[], skip: number, offset: number, limit: number, window: number): string[] {
  const ranked = candidates
    .map((c, i) => ({ ...c, block: Math.floor(i / window) }))
    .sort((a, b) => a.block - b.block || a.tier - b.tier || Number(b.created_at) - Number(a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return ranked.slice(offset - skip, offset - skip + limit + 1).map((c) => c.id);
}

/**
 * A walk of the sort index reads about (page end) x (listed videos) / (matches) videos; finding
 * the matches first reads each match. The walk is taken when it reads fewer.
 */
export function walkOrMatches(offset: number, limit: number, count: MatchCount): SortRead {
  return (offset + limit + 1) * count.listed < count.total * count.total ? 'walk' : 'matches first';
}

/**
 * The total a page of an estimated search answers. One row past the page says whether another
 * page exists, and the total never contradicts it: a full page with more after it claims at least
 * one more, a short page is the last one, and a page past the end says the list ends at the
 * matches that were counted.
 */
export function estimatedTotal(count: MatchCount, offset: number, shown: number, hasMore: boolean): number {
  const seen = offset + shown;
  return hasMore ? Math.max(count.total, seen + 1) : shown ? seen : count.matches;
}
