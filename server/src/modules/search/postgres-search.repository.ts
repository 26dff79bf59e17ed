import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/client.js';
import { listedVideo } from '../../db/video-access.js';
import { SORT_COLUMNS, type VideoListFilter, type VideoSummaryRow } from '../../db/video-list.js';
import { type Candidate, type MatchCount, pageByRelevance } from './bounded-search.js';
import { lexemeQuery, tsAnyWord, tsPrefixQuery, WORDS_PER_PREFIX } from './query-syntax.js';
import { cards, cuesInScope, listedCount, searchExactly, videosInScope } from './search-common.repository.js';
import type { Blocks, CueRow, MatchBlock, SearchPage, SearchScope, SearchStrategy, SimilarBlock, SimilarMatch, SiteSearch } from './search-strategy.js';

/** A search's words as a tsquery. */
type TsQuery = RawBuilder<unknown>;

/** How many times the cap the planner's estimate must be for it to be the total unchecked. */
const PLANNER_TRUSTED_ABOVE = 4;

/** How much further back than the planner's share says the block is looked for first. */
const REACH_MARGIN = 1.5;

/** A range this many times the block or less: the time index alone is walked, as before. */
const WALK_IS_SHORT_UNDER = 6;

/**
 * Beyond this many of the newest videos the range costs more to gather than reading every match;
 * and above this many matches the search index's bitmap of them all (0.13 us a match at a million
 * videos) costs more than the walk down the time index it replaces.
 */
const MAX_REACH = 60_000;
const MAX_PLANNED = 30_000;

/** Only plain letters and digits: then the typed word is exactly the lexeme to_tsquery would make. */
const PLAIN = /^[a-z0-9]+$/;

/**
 * Search on PostgreSQL: the videos' and cues' search_vector columns with their GIN indexes, and
 * the search_words table of every word the index holds (docs/decisions/0038-search-words.md).
 */
export class PostgresSearchRepository implements SearchStrategy {
  constructor(private readonly db: Db) {}

  async siteSearch(words: string[]): Promise<SiteSearch | null> {
    const tsq = await searchTsQuery(this.db, words);
    return tsq === null ? null : new PostgresSiteSearch(this.db, words, tsq);
  }

  searchExactly(filter: VideoListFilter): Promise<SearchPage> {
    return searchExactly(this.db, filter, {
      matching: (base, words) => base.where(sql<boolean>`videos.search_vector @@ ${prefixTsQuery(words)}`),
      byRelevance: (q, words) => q.orderBy(sql`ts_rank(videos.search_vector, ${prefixTsQuery(words)})`, 'desc'),
    });
  }

  async matchingAmong(filter: VideoListFilter, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const q = videosInScope(this.db, filter, ids);
    const tsq = await searchTsQuery(this.db, filter.words);
    if (tsq === null) return new Set();
    const rows = await q
      .select('videos.id')
      .where(sql<boolean>`videos.search_vector @@ ${tsq}`)
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  cards(ids: string[]): Promise<VideoSummaryRow[]> {
    return cards(this.db, ids);
  }

  /** The first cues the search index gives, in no particular order. */
  captionCues(words: string[], scope: SearchScope, limit: number): Promise<CueRow[]> {
    return cuesInScope(
      this.db,
      sql<{ id: number }>`(SELECT id FROM caption_cues WHERE search_vector @@ to_tsquery('simple', ${tsPrefixQuery(words)}) LIMIT ${limit})`,
      scope,
    );
  }

  /**
   * Whole words, newest first: the planner walks the (listed, created_at, id) index or reads the
   * search index, whichever it expects to be cheaper; the span is counted down the time index.
   */
  async newestMatchesOfAny(videoId: string, words: readonly string[], block: SimilarBlock): Promise<MatchBlock> {
    const { take } = block;
    const listed = await listedCount(this.db);
    const query = sql`to_tsquery('simple', ${tsAnyWord(words)})`;
    // The planner guesses the share of matches from statistics and walks the time index when it
    // expects the block soon; for words known to be rare, reading their matches from the search
    // index and sorting them is far cheaper than checking videos one by one down the time index.
    const rows = block.fewMatches
      ? await sql<SimilarMatch & { created_at: number | string }>`
        with m as materialized (select id, created_at from videos
          where ${listedVideo()} and videos.search_vector @@ ${query} and videos.id <> ${videoId})
        select v.id, v.title, v.owner_text, v.description, v.created_at
        from (select id, created_at from m order by created_at desc, id desc limit ${sql.lit(take)}) n join videos v on v.id = n.id
        order by n.created_at desc, n.id desc`.execute(this.db)
      : await sql<SimilarMatch & { created_at: number | string }>`
        select videos.id, videos.title, videos.owner_text, videos.description, videos.created_at from videos
        where ${listedVideo()} and videos.search_vector @@ ${query} and videos.id <> ${videoId}
        order by videos.created_at desc, videos.id desc limit ${sql.lit(take)}`.execute(this.db);
    const oldest = rows.rows.at(-1);
    if (rows.rows.length < take || !oldest) return { rows: rows.rows, span: listed, listed };
    const counted = await sql<{ n: number | string }>`select count(*) as n from (select 1 from videos
      where ${listedVideo()} and (videos.created_at, videos.id) >= (${Number(oldest.created_at)}, ${oldest.id})
      limit ${sql.lit(block.spanUpTo)}) t`.execute(this.db);
    return { rows: rows.rows, span: Number(counted.rows[0]?.n ?? 0), listed };
  }
}

/** The bounded search's reads for one set of words, from the GIN index and the time index. */
class PostgresSiteSearch implements SiteSearch {
  /** Every listed match, when a block read ended before it had all it asked for: the exact count. */
  private readToEnd: number | null = null;
  private planned: number | null = null;

  constructor(
    private readonly db: Db,
    private readonly words: string[],
    private readonly tsq: TsQuery,
  ) {}

  async countUpTo(cap: number): Promise<MatchCount> {
    if (this.readToEnd !== null) return { matches: this.readToEnd, total: this.readToEnd, listed: await listedCount(this.db) };
    // Counting up to the cap reads about cap / (share of videos that match) rows; when the planner's
    // statistics already say the matches are far more than the cap, its estimate is the total.
    const planned = await this.plannedMatches();
    if (planned > cap * PLANNER_TRUSTED_ABOVE) {
      return { matches: cap + 1, total: planned, listed: await listedCount(this.db) };
    }
    // Counted in whatever order the index gives them, stopping one past the cap: ordering them by
    // time first would read every match. Past the cap the planner's estimate is the total.
    const counted = await this.db
      .selectFrom(sql<{ one: number }>`(select 1 as one from videos where listed = 1 and search_vector @@ ${this.tsq} limit ${cap + 1})`.as('m'))
      .select([sql<number>`count(*)`.as('n'), sql<number>`(select value from counters where key = 'public_videos')`.as('listed')])
      .executeTakeFirstOrThrow();
    const n = Number(counted.n);
    return { matches: n, total: n > cap ? Math.max(n, planned) : n, listed: Number(counted.listed) };
  }

  /**
   * The window comes from the index on (listed, created_at, id) or from the search index, whichever
   * the planner expects to be cheaper; the tiers are worked out on its rows alone.
   */
  async relevancePage(blocks: Blocks, offset: number, limit: number, window: number): Promise<string[]> {
    const candidates = await this.newestMatches(blocks.take, blocks.skip);
    // A read that ends short has seen every match after those it skipped: the count needs no query.
    if (candidates.length < blocks.take && (candidates.length > 0 || blocks.skip === 0)) this.readToEnd = blocks.skip + candidates.length;
    return pageByRelevance(candidates, blocks.skip, offset, limit, window);
  }

  /** The planner's estimate of the listed matches, asked once per search. */
  private async plannedMatches(): Promise<number> {
    if (this.planned === null) {
      const plan = await sql<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>`explain (format json)
        select 1 from videos where listed = 1 and search_vector @@ ${this.tsq}`.execute(this.db);
      this.planned = Math.round(Number(plan.rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0));
    }
    return this.planned;
  }

  /**
   * Walking the time index checks every video's search vector until the block is full (thousands
   * for a word in a few percent of titles), and the search index alone reads every match. So the
   * block is first looked for among the newest videos that, by the planner's share of matching
   * videos, should hold it with room to spare: the planner then intersects the search index with
   * that range of the time index and reads about the block's own rows. A range that holds the whole
   * block gives exactly the rows the unbounded read gives; one that falls short is read again unbounded.
   */
  private async newestMatches(take: number, skip: number): Promise<Candidate[]> {
    const [planned, listed] = await Promise.all([this.plannedMatches(), listedCount(this.db)]);
    const reach = planned > 0 ? Math.ceil((((skip + take) * listed) / planned) * REACH_MARGIN) : Infinity;
    // Where most videos match, walking the time index reads little more than the block itself.
    if (planned <= MAX_PLANNED && reach > (skip + take) * WALK_IS_SHORT_UNDER && reach < Math.min(listed, MAX_REACH)) {
      const bound = await sql<{ created_at: number | string }>`select created_at from videos where listed = 1
        order by created_at desc, id desc offset ${reach} limit 1`.execute(this.db);
      const from = bound.rows[0]?.created_at;
      if (from !== undefined) {
        const rows = await this.block(take, skip, sql`and created_at >= ${Number(from)}`);
        if (rows.length === take) return rows;
      }
    }
    return this.block(take, skip, sql``);
  }

  private async block(take: number, skip: number, since: RawBuilder<unknown>): Promise<Candidate[]> {
    const window = sql<Candidate>`(select n.id, n.created_at,
        case when v.search_vector @@ to_tsquery('simple', ${tsPrefixQuery(this.words, 'A')}) then 0
             when v.search_vector @@ to_tsquery('simple', ${tsPrefixQuery(this.words, 'AB')}) then 1 else 2 end as tier
      from (select id, created_at from videos
        where listed = 1 and search_vector @@ ${this.tsq} ${since}
        order by created_at desc, id desc limit ${take} offset ${skip}) n
      join videos v on v.id = n.id)`;
    const rows = await this.db.selectFrom(window.as('c')).selectAll().orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').execute();
    return rows.map((r) => ({ id: r.id, created_at: Number(r.created_at), tier: Number(r.tier) }));
  }

  /** The planner walks the sort index or reads the search index first, by its statistics. */
  async inSortOrder(filter: VideoListFilter): Promise<string[]> {
    const rows = await this.db
      .selectFrom('videos')
      .where(sql<boolean>`videos.search_vector @@ ${this.tsq}`)
      .where(listedVideo())
      .select('videos.id')
      .orderBy(SORT_COLUMNS[filter.sortBy], filter.sortType)
      .orderBy('videos.id', filter.sortType)
      .limit(filter.limit + 1)
      .offset(filter.offset)
      .execute();
    return rows.map((r) => r.id);
  }
}

/**
 * The words as a tsquery in which each typed word (a prefix) is written as the whole words of the
 * index it starts. GIN answers whole words by stepping through their lists together; a prefix it
 * first gathers, every match of every word it starts, into a bitmap, which for two common words
 * cost four to five times as much. Null when one of the words starts no word in the index (nothing
 * can match); words that are not plain, or a prefix of too many words, keep the prefix form.
 */
export async function searchTsQuery(db: Db, words: string[]): Promise<TsQuery | null> {
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
function prefixTsQuery(words: readonly string[]): TsQuery {
  return sql`to_tsquery('simple', ${tsPrefixQuery(words)})`;
}

/** The first string after every string starting with `word`, in byte order (plain words only). */
function after(word: string): string {
  return word.slice(0, -1) + String.fromCharCode(word.charCodeAt(word.length - 1) + 1);
}
