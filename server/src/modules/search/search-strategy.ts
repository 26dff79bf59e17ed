import type { VideoListFilter, VideoSummaryRow } from '../../db/video-list.js';
import type { MatchCount, SortRead } from './bounded-search.js';

/**
 * What a search needs from a database: each database answers it with its own full-text index
 * (sqlite-search.repository.ts: FTS5; postgres-search.repository.ts: tsvector and GIN), and
 * search.factory.ts picks one once, from the dialect.
 */
export interface SearchStrategy {
  /** The bounded search over the whole site for these words; null when nothing can match them. */
  siteSearch(words: string[]): Promise<SiteSearch | null>;
  /** A channel's search: every match counted, ranked and sorted (a channel holds few videos). */
  searchExactly(filter: VideoListFilter): Promise<SearchPage>;
  /** Which of these videos the filter's words match: a check of a few ids. */
  matchingAmong(filter: VideoListFilter, ids: string[]): Promise<Set<string>>;
  /** Card rows of these videos, in the order given. */
  cards(ids: string[]): Promise<VideoSummaryRow[]>;
  /** Up to `limit` cues holding every word, of videos in the scope, as the index gives them. */
  captionCues(words: string[], scope: SearchScope, limit: number): Promise<CueRow[]>;
  /** The newest listed videos other than one holding any of the words, for similar videos. */
  newestMatchesOfAny(videoId: string, words: readonly string[], block: SimilarBlock): Promise<MatchBlock>;
}

/** The reads of the bounded search for one set of words (bounded-search.ts holds the arithmetic). */
export interface SiteSearch {
  /**
   * The listed matches, newest first, counted up to one past the cap. Above the cap the total is
   * estimated: the share of the newest videos that the counted matches cover, scaled to all of them.
   */
  countUpTo(cap: number): Promise<MatchCount>;
  /**
   * The ids of a page by relevance and the one after it: the listed matches of `blocks`, ranked as
   * bounded-search.ts's pageByRelevance ranks them.
   */
  relevancePage(blocks: Blocks, offset: number, limit: number, window: number): Promise<string[]>;
  /** An explicit sort: the ids of the page (and one more) in the sort column's order. */
  inSortOrder(filter: VideoListFilter, how: SortRead, count: MatchCount): Promise<string[]>;
}

/** The blocks a page falls in: how many of the newest matches to skip, and how many to read. */
export interface Blocks {
  skip: number;
  take: number;
}

/** A page of a search, its total, and whether that total was counted or estimated. */
export interface SearchPage {
  rows: VideoSummaryRow[];
  total: number;
  counted: boolean;
}

/** Whose videos a search looks at. */
export interface SearchScope {
  /** Only this owner's videos. */
  ownerId?: string;
  /** Every state of the owner's own videos; else listed ones only. */
  includeHidden: boolean;
}

/** A cue that holds the words searched for. */
export interface CueRow {
  video_id: string;
  start_ms: number;
  text: string;
}

/** A video whose captions say the words searched for, with the first cue (in the video) that does. */
export interface CaptionHit {
  videoId: string;
  startMs: number;
  text: string;
}

/** What a similarity search reads: how many of the newest matches, and how far it counts their span. */
export interface SimilarBlock {
  take: number;
  /** The span is counted up to this many videos: beyond it none of the words can be common. */
  spanUpTo: number;
  /** The words are known to be rare: reading their matches first is cheaper than walking by time. */
  fewMatches?: boolean;
}

/** A video holding some of the words, with the text the similarity ranking reads. */
export interface SimilarMatch {
  id: string;
  title: string;
  owner_text: string;
  description: string;
}

/** The newest matches of some words, newest first, the span of the catalogue they cover, and the listed videos. */
export interface MatchBlock {
  rows: SimilarMatch[];
  span: number;
  listed: number;
}
