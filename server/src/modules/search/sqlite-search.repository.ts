import { sql } from 'kysely';
import type { Db } from '../../db/client.js';
import { listedVideo } from '../../db/video-access.js';
import { SORT_COLUMNS, type VideoListFilter, type VideoSummaryRow } from '../../db/video-list.js';
import { type Candidate, estimate, type MatchCount, type SortRead } from './bounded-search.js';
import { fts5AnyWord, fts5Match } from './query-syntax.js';
import { cards, cuesInScope, listedCount, searchExactly, videosInScope, type VideosQuery } from './search-common.repository.js';
import type { CueRow, MatchBlock, SearchPage, SearchScope, SearchStrategy, SimilarBlock, SimilarMatch, SiteSearch } from './search-strategy.js';
import { textMatches } from './search-words.js';

/** How many videos an explicit sort reads at a time while it walks its index. */
const WALK_BATCH = 200;

/**
 * Search on SQLite: the FTS5 tables videos_fts and caption_cues_fts, whose rowids follow upload
 * order, so "the newest matches" is the index's own order read backwards and stops early.
 */
export class SqliteSearchRepository implements SearchStrategy {
  constructor(private readonly db: Db) {}

  async siteSearch(words: string[]): Promise<SiteSearch> {
    return new SqliteSiteSearch(this.db, words);
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

/** The bounded search's reads for one set of words, from FTS5 (blocks in upload order). */
class SqliteSiteSearch implements SiteSearch {
  constructor(
    private readonly db: Db,
    private readonly words: string[],
  ) {}

  async countUpTo(cap: number): Promise<MatchCount> {
    const newest = sql<{ r: number }>`(select videos_fts.rowid as r from videos_fts join videos on videos.rowid = videos_fts.rowid
      where videos_fts match ${fts5Match(this.words)} and videos.listed = 1 order by videos_fts.rowid desc limit ${cap + 1})`;
    const row = await this.db
      .selectFrom(newest.as('m'))
      .select([
        sql<number>`count(*)`.as('n'),
        sql<number>`min(m.r)`.as('last'),
        sql<number>`(select max(rowid) from videos)`.as('hi'),
        sql<number>`(select min(rowid) from videos)`.as('lo'),
        sql<number>`(select value from counters where key = 'public_videos')`.as('listed'),
      ])
      .executeTakeFirstOrThrow();
    return { ...estimate(Number(row.n), cap, Number(row.hi) - Number(row.last) + 1, Number(row.hi) - Number(row.lo) + 1), listed: Number(row.listed) };
  }

  async newestMatches(take: number, skip: number): Promise<Candidate[]> {
    const match = fts5Match(this.words);
    const window = sql<{ r: number; id: string; created_at: number }>`(select videos_fts.rowid as r, videos.id, videos.created_at
      from videos_fts join videos on videos.rowid = videos_fts.rowid
      where videos_fts match ${match} and videos.listed = 1
      order by videos_fts.rowid desc limit ${take} offset ${skip})`;
    const rows = await this.db.selectFrom(window.as('c')).selectAll().execute();
    if (!rows.length) return [];
    // The window is a range of the index's rows: which of them hold the words in the title (or the
    // channel's name) is one more read of that range each, with FTS5's column filters. The bounds are
    // cast because a bound number arrives as a real, and FTS5 then reads the whole list instead.
    const lo = Math.min(...rows.map((r) => Number(r.r)));
    const hi = Math.max(...rows.map((r) => Number(r.r)));
    const inColumns = async (columns: string) =>
      new Set(
        (
          await this.db
            .selectFrom(
              sql<{ r: number }>`(select rowid as r from videos_fts
        where videos_fts match ${`{${columns}} : (${match})`}
        and rowid between cast(${lo} as integer) and cast(${hi} as integer))`.as('t'),
            )
            .selectAll()
            .execute()
        ).map((t) => Number(t.r)),
      );
    const [title, titleOrChannel] = await Promise.all([inColumns('title'), inColumns('title owner_text')]);
    return rows.map((r) => ({
      id: r.id,
      created_at: Number(r.created_at),
      tier: title.has(Number(r.r)) ? 0 : titleOrChannel.has(Number(r.r)) ? 1 : 2,
    }));
  }

  /**
   * With many matches the index on (listed, column, id) is walked in order, in batches, each video
   * checked against the words, stopping at the page; with few, the matches are found first and sorted.
   */
  async inSortOrder(filter: VideoListFilter, how: SortRead, count: MatchCount): Promise<string[]> {
    const column = SORT_COLUMNS[filter.sortBy];
    if (how === 'walk') return this.walk(filter, count);
    const rows = await this.db
      .selectFrom('videos')
      .where(sql<boolean>`videos.rowid in (select rowid from videos_fts where videos_fts match ${fts5Match(this.words)})`)
      .where(listedVideo())
      .select('videos.id')
      .orderBy(column, filter.sortType)
      .orderBy('videos.id', filter.sortType)
      .limit(filter.limit + 1)
      .offset(filter.offset)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * FTS5 answers "does this one row match?" slowly (it merges every prefix's list again), so the
   * walk reads the batch's text and checks it the way the index splits words.
   */
  private async walk(filter: VideoListFilter, count: MatchCount): Promise<string[]> {
    const column = SORT_COLUMNS[filter.sortBy];
    const wanted = filter.offset + filter.limit + 1;
    const found: string[] = [];
    // The first batch is about what the share of matching videos says the page needs.
    let batch = Math.min(WALK_BATCH, Math.ceil(((wanted * count.listed) / Math.max(1, count.total)) * 1.2) + 8);
    for (let skip = 0; found.length < wanted; skip += batch, batch = WALK_BATCH) {
      const rows = await this.db
        .selectFrom('videos')
        .select(['videos.id', 'videos.title', 'videos.owner_text', 'videos.description'])
        .where(listedVideo())
        .orderBy(column, filter.sortType)
        .orderBy('videos.id', filter.sortType)
        .limit(batch)
        .offset(skip)
        .execute();
      for (const r of rows) if (textMatches([r.title, r.owner_text, r.description], this.words)) found.push(r.id);
      if (rows.length < batch) break;
    }
    return found.slice(filter.offset, wanted);
  }
}
