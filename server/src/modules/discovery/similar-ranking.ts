/**
 * "Similar words" for up next, as plain functions over a block of matches: which of a video's words
 * are too common to say anything, and how the matches rank. See docs/decisions/0035-bounded-up-next.md.
 *
 * The block is the newest listed videos holding any of the words (SIMILAR_WINDOW of them), and
 * `span` is how many videos the catalogue holds from the oldest of them to the newest upload. Every
 * video in that span with one of the words is in the block, so the share of the span holding a
 * word estimates how common the word is across the catalogue, without reading its whole list.
 */
import type { MatchBlock, SimilarBlock, SimilarMatch } from '../search/search-strategy.js';
import { indexWords } from '../search/search-words.js';

/** How many of the newest matches are read and ranked. */
export const SIMILAR_WINDOW = 200;
/** A word in more than this share of videos says nothing about what a video is about... */
export const COMMON_SHARE = 0.05;
/** ...once it is in this many of them at least: on a small site every word is telling, by rarity. */
export const COMMON_MIN_MATCHES = 50;
/** Where a word counts most: the title, then the channel's name, then the description (as bm25 weighed them). */
const COLUMN_WEIGHTS = { title: 10, owner: 5, description: 1 } as const;

/**
 * The block read: the span is counted only up to where no word of the block could be common any
 * more (SIMILAR_WINDOW over the cap is below COMMON_SHARE).
 */
export const SIMILAR_BLOCK: SimilarBlock = { take: SIMILAR_WINDOW, spanUpTo: Math.ceil(SIMILAR_WINDOW / COMMON_SHARE) + 1 };

const ASCII = /^\p{ASCII}*$/u;

/** One column of a match, split into the index's words only when a word might be in it. */
class Column {
  private readonly lower: string;
  private readonly ascii: boolean;
  private words: Set<string> | null = null;
  constructor(private readonly text: string) {
    this.lower = text.toLowerCase();
    this.ascii = ASCII.test(text);
  }

  /** Does the column hold every part of the word, each as a whole word? */
  holds(parts: readonly string[]): boolean {
    if (!parts.length) return false;
    // A plain part that is nowhere in ASCII text cannot be one of its words: no need to split it.
    if (this.ascii && parts.some((p) => !this.lower.includes(p))) return false;
    this.words ??= new Set(indexWords(this.text));
    return parts.every((p) => this.words!.has(p));
  }
}

/** For each match, the weight of where each word is in it (title, else channel name, else description; 0 if absent). */
function placesOf(words: readonly string[], rows: readonly SimilarMatch[]): number[][] {
  const parts = words.map((w) => indexWords(w));
  return rows.map((r) => {
    const title = new Column(r.title);
    const owner = new Column(r.owner_text);
    const description = new Column(r.description);
    return parts.map((p) =>
      title.holds(p) ? COLUMN_WEIGHTS.title : owner.holds(p) ? COLUMN_WEIGHTS.owner : description.holds(p) ? COLUMN_WEIGHTS.description : 0,
    );
  });
}

const spanOf = (block: MatchBlock) => Math.max(block.span, block.rows.length, 1);
const sharesOf = (words: readonly string[], places: number[][], span: number) =>
  new Map(words.map((w, i) => [w, places.filter((p) => p[i]! > 0).length / span]));

/** The share of the catalogue each word is estimated to be in (see the file's comment). */
export function wordShares(words: readonly string[], block: MatchBlock): Map<string, number> {
  return sharesOf(words, placesOf(words, block.rows), spanOf(block));
}

/** The words in more than COMMON_SHARE of the catalogue and more than COMMON_MIN_MATCHES videos. */
export function commonWords(words: readonly string[], block: MatchBlock): string[] {
  const span = spanOf(block);
  const shares = wordShares(words, block);
  return words.filter((w) => {
    const share = shares.get(w) ?? 0;
    return share > COMMON_SHARE && share * span > COMMON_MIN_MATCHES;
  });
}

/** How many listed videos some words are expected to match, from their shares in a block (at most the sum). */
export function expectedMatches(words: readonly string[], block: MatchBlock): number {
  const shares = wordShares(words, block);
  return words.reduce((n, w) => n + (shares.get(w) ?? 0) * block.listed, 0);
}

/**
 * Should the newest `take` matches of these words be found by reading all their matches (few) rather
 * than by going down the videos newest first and checking each (about take x listed / matches of
 * them)? The one that reads fewer videos, as for search (ADR 0032). Only PostgreSQL has the choice.
 */
export function fewMatches(words: readonly string[], block: MatchBlock, take: number): boolean {
  const expected = expectedMatches(words, block);
  return expected * expected < take * block.listed;
}

/**
 * The block's videos, best first: each word a video holds adds the word's rarity (as bm25's inverse
 * document frequency, from the shares) times where it is (title 10, channel name 5, description 1).
 * Ties go to the newer video (the block's order), so the order is the same every time.
 */
export function rankSimilar(words: readonly string[], block: MatchBlock, limit: number): string[] {
  const places = placesOf(words, block.rows);
  const span = spanOf(block);
  const shares = sharesOf(words, places, span);
  const rarity = words.map((w) => {
    const n = (shares.get(w) ?? 0) * span;
    return Math.log((span - n + 0.5) / (n + 0.5) + 1);
  });
  const scored = block.rows.map((r, place) => ({ id: r.id, place, score: places[place]!.reduce((sum, where, i) => sum + where * rarity[i]!, 0) }));
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.place - b.place)
    .slice(0, limit)
    .map((s) => s.id);
}
