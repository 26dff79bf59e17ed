import type { VideoListFilter } from '../../db/video-list.js';
import { blocksOfPage, estimatedTotal, SEARCH_LIMITS, type SearchLimits, walkOrMatches } from './bounded-search.js';
import type { CaptionHit, MatchBlock, SearchPage, SearchScope, SearchStrategy, SimilarBlock } from './search-strategy.js';

/**
 * How many matching cues one caption search looks at, and how many videos it answers at most. A
 * common word may be in millions of cues: the search takes the first few hundred the index gives
 * (the newest on SQLite) and never ranks or counts them all.
 */
export const CUES_PER_SEARCH = 400;
export const VIDEOS_PER_SEARCH = 50;

/**
 * Search, as the rest of the server asks for it: videos by their words, by what is said in them,
 * and by the words of another video. The database's part comes from its strategy
 * (search-strategy.ts); the bounds and the ranking that do not depend on it are here.
 */
export class SearchService {
  constructor(
    private readonly strategy: SearchStrategy,
    private readonly limits: SearchLimits = SEARCH_LIMITS,
  ) {}

  /**
   * One page of the videos the filter's words match, and their total. A channel's own search (its
   * owner sees every state of their videos) is small and stays exact; a search over the whole site
   * is bounded, and its total is an estimate (`counted` false) when the words match very many videos.
   */
  async videos(filter: VideoListFilter): Promise<SearchPage> {
    if (filter.ownerId || filter.includeHidden) return this.strategy.searchExactly(filter);
    const search = await this.strategy.siteSearch(filter.words);
    if (search === null) return { rows: [], total: 0, counted: true };
    // By relevance the blocks the page (and the row after it) falls in are read first: bounded by the
    // window however common the words are, and what they reach tells the count how dense the matches are.
    const blocks = filter.byRelevance ? blocksOfPage(filter.offset, filter.limit, this.limits.window) : null;
    const page = blocks ? await search.relevancePage(blocks, filter.offset, filter.limit, this.limits.window) : [];
    const count = await search.countUpTo(this.limits.exactUpTo);
    const { matches } = count;
    const counted = matches <= this.limits.exactUpTo;
    if (counted && (matches === 0 || filter.offset >= matches)) return { rows: [], total: matches, counted };
    const ids = blocks ? page : await search.inSortOrder(filter, counted ? 'matches first' : walkOrMatches(filter.offset, filter.limit, count), count);
    const rows = await this.strategy.cards(ids.slice(0, filter.limit));
    if (counted) return { rows, total: matches, counted };
    return { rows, total: estimatedTotal(count, filter.offset, rows.length, ids.length > filter.limit), counted };
  }

  /** Which of these videos the filter's words match: a check of a few ids. */
  matchingAmong(filter: VideoListFilter, ids: string[]): Promise<Set<string>> {
    return this.strategy.matchingAmong(filter, ids);
  }

  /**
   * Videos whose cues hold every word (as prefixes, like the title search), those with the most
   * matching cues first; for each, its earliest matching cue.
   */
  async captions(words: string[], scope: SearchScope): Promise<CaptionHit[]> {
    if (!words.length) return [];
    const cues = await this.strategy.captionCues(words, scope, CUES_PER_SEARCH);
    const byVideo = new Map<string, { hit: CaptionHit; count: number; order: number }>();
    for (const cue of cues) {
      const startMs = Number(cue.start_ms);
      const seen = byVideo.get(cue.video_id);
      if (!seen) byVideo.set(cue.video_id, { hit: { videoId: cue.video_id, startMs, text: cue.text }, count: 1, order: byVideo.size });
      else {
        seen.count++;
        if (startMs < seen.hit.startMs) seen.hit = { videoId: cue.video_id, startMs, text: cue.text };
      }
    }
    return [...byVideo.values()]
      .sort((a, b) => b.count - a.count || a.order - b.order)
      .slice(0, VIDEOS_PER_SEARCH)
      .map((v) => v.hit);
  }

  /**
   * The newest `block.take` listed videos other than this one whose title, description or channel
   * name holds any of the words (whole words, as the search index splits them), newest first, with
   * how many videos the catalogue holds from the oldest of them on (all listed videos when fewer
   * matched), counted up to `block.spanUpTo`.
   */
  async newestMatchesOfAny(videoId: string, words: readonly string[], block: SimilarBlock): Promise<MatchBlock> {
    if (!words.length) return { rows: [], span: 0, listed: 0 };
    return this.strategy.newestMatchesOfAny(videoId, words, block);
  }
}
