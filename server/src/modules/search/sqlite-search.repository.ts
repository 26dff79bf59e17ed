import { sql } from 'kysely';
import type { Db } from '../../db/client.js';
import { listedVideo } from '../../db/video-access.js';
import type { VideoListFilter, VideoSummaryRow } from '../../db/video-list.js';
import { fts5AnyWord, fts5Match } from './query-syntax.js';
import { cards, cuesInScope, listedCount, searchExactly, videosInScope, type VideosQuery } from './search-common.repository.js';
import type { CueRow, MatchBlock, SearchPage, SearchScope, SearchStrategy, SimilarBlock, SimilarMatch, SiteSearch } from './search-strategy.js';
import { textMatches } from './search-words.js';
import { sqliteSiteSearch } from './sqlite-site-search.repository.js';

/**
 * Search on SQLite: the FTS5 tables videos_fts and caption_cues_fts, whose rowids follow upload
 * order, so "the newest matches" is the index's own order read backwards and stops early.
 */
export class SqliteSearchRepository implements SearchStrategy {
  constructor(private readonly db: Db) {}

  siteSearch(words: string[]): Promise<SiteSearch | null> {
    return sqliteSiteSearch(this.db, words);
  }

  searchExactly(filter: VideoListFilter): Promise<SearchPage> {
    return searchExactly(this.db, filter, {
      matching: (base, words) =>
        base
          .innerJoin(sql<{ rowid: number }>`videos_fts`.as('videos_fts'), (join) => join.on(sql<boolean>`videos_fts.rowid = videos.rowid`))
          .where(sql<boolean>`videos_fts match ${fts5Match(words)}`) as unknown as VideosQuery,
      byRelevance: (q) => q.orderBy(sql`bm25(videos_fts, 10.0, 5.0, 1.0)`),
    });
  }

  async matchingAmong(filter: VideoListFilter, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    // One look-up per word in the full-text index costs far more than reading these few rows.
    const rows = await videosInScope(this.db, filter, ids).select(['videos.id', 'videos.title', 'videos.owner_text', 'videos.description']).execute();
    return new Set(rows.filter((r) => textMatches([r.title, r.owner_text, r.description], filter.words)).map((r) => r.id));
  }

  cards(ids: string[]): Promise<VideoSummaryRow[]> {
    return cards(this.db, ids);
  }

  /** The newest cues first, in the index's order. */
  captionCues(words: string[], scope: SearchScope, limit: number): Promise<CueRow[]> {
    return cuesInScope(
      this.db,
      sql<{ id: number }>`(SELECT rowid AS id FROM caption_cues_fts WHERE caption_cues_fts MATCH ${fts5Match(words)} ORDER BY rowid DESC LIMIT ${limit})`,
      scope,
    );
  }

  /**
   * Whole words, newest first in the order of the FTS5 index, which stops after `take`; the span
   * is the rowids from the oldest of them to the newest upload (all listed videos when fewer matched).
   */
  async newestMatchesOfAny(videoId: string, words: readonly string[], block: SimilarBlock): Promise<MatchBlock> {
    const { take } = block;
    const listed = await listedCount(this.db);
    const rows = await sql<SimilarMatch & { r: number }>`
      select videos_fts.rowid as r, videos.id, videos.title, videos.owner_text, videos.description
      from videos_fts join videos on videos.rowid = videos_fts.rowid
      where videos_fts match ${fts5AnyWord(words)} and videos.id <> ${videoId} and ${listedVideo()}
      order by videos_fts.rowid desc limit ${sql.lit(take)}`.execute(this.db);
    const oldest = rows.rows.at(-1)?.r;
    const span =
      rows.rows.length < take || oldest === undefined
        ? listed
        : Number((await sql<{ hi: number }>`select max(rowid) as hi from videos`.execute(this.db)).rows[0]?.hi ?? 0) - Number(oldest) + 1;
    return { rows: rows.rows, span, listed };
  }
}
