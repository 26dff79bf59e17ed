import { type RawBuilder, sql } from 'kysely';
import type { Db, Dialect } from '../../db/client.js';
import { listedVideo } from '../../db/video-access.js';
import { fts5Match, textMatches } from './video-search.js';
import { searchExactly, type SearchPage, type VideosQuery } from './video-search-exact.js';
import { prefixTsQuery, searchTsQuery } from './video-search-words.js';
import { SORT_COLUMNS, SUMMARY_COLUMNS, type VideoListFilter, type VideoSummaryRow } from './video-list.js';

/**
 * How much a search over the whole site reads (docs/decisions/0032-bounded-search.md).
 * - `window`: matches are taken newest first in blocks of this many; relevance orders each block.
 * - `exactUpTo`: matches are counted exactly up to this many; above it the total is an estimate.
 */
export interface SearchLimits {
  window: number;
  exactUpTo: number;
}

export const SEARCH_LIMITS: SearchLimits = { window: 200, exactUpTo: 1_000 };

export type { SearchPage } from './video-search-exact.js';

/** PostgreSQL: the words as a tsquery (video-search-words.ts); SQLite matches with FTS5 instead. */
type TsQuery = RawBuilder<unknown>;

/** One of the newest matches, with what orders it within its block. */
interface Candidate {
  id: string;
  created_at: number;
  /** 0: every word in the title; 1: every word in the title or the channel's name; 2: elsewhere too. */
  tier: number;
}

/** The matches counted (up to one past the cap), the total answered, and the listed videos. */
interface Count {
  matches: number;
  total: number;
  listed: number;
}

/** PostgreSQL: how many times the cap the planner's estimate must be for it to be the total unchecked. */
const PLANNER_TRUSTED_ABOVE = 4;

/** How many videos an explicit sort reads at a time while it walks its index. */
const WALK_BATCH = 200;

/**
 * The search queries. A search over the whole site never ranks, sorts or counts every match: it
 * counts up to a cap, ranks only the blocks of newest matches a page falls in, and an explicit sort
 * walks the sort column's index and stops at the page. A channel's own search (its owner sees every
 * state of their videos) is small and stays exact.
 */
export class VideoSearchRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly limits: SearchLimits = SEARCH_LIMITS,
  ) {}

  async list(filter: VideoListFilter): Promise<SearchPage> {
    if (filter.ownerId || filter.includeHidden) return searchExactly(this.db, this.dialect, filter);
    const q = await this.tsQuery(filter.words);
    if (q === null) return { rows: [], total: 0, counted: true };
    const count = await this.countUpToCap(filter.words, q);
    const { matches, total } = count;
    const counted = matches <= this.limits.exactUpTo;
    if (counted && (matches === 0 || filter.offset >= matches)) return { rows: [], total: matches, counted };
    const ids = filter.byRelevance
      ? await this.byRelevance(filter, q)
      : await this.inSortOrder(filter, counted ? 'matches first' : this.walkOrMatches(filter, count), count, q);
    const rows = await this.cards(ids.slice(0, filter.limit));
    if (counted) return { rows, total: matches, counted };
    // One row past the page says whether another page exists, and the total never contradicts it:
    // a full page with more after it claims at least one more, a short page is the last one, and a
    // page past the end says the list ends at the matches that were counted.
    const hasMore = ids.length > filter.limit;
    const seen = filter.offset + rows.length;
    return { rows, total: hasMore ? Math.max(total, seen + 1) : rows.length ? seen : matches, counted };
  }

  /** Which of these videos the filter's words match: a check of a few ids. */
  async matchingAmong(filter: VideoListFilter, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    let q = this.db.selectFrom('videos').where('videos.id', 'in', ids);
    if (filter.ownerId) q = q.where('videos.owner_id', '=', filter.ownerId);
    if (!filter.includeHidden) q = q.where(listedVideo());
    if (this.dialect === 'sqlite') {
      // One look-up per word in the full-text index costs far more than reading these few rows.
      const rows = await q.select(['videos.id', 'videos.title', 'videos.owner_text', 'videos.description']).execute();
      return new Set(rows.filter((r) => textMatches([r.title, r.owner_text, r.description], filter.words)).map((r) => r.id));
    }
    const tsq = await this.tsQuery(filter.words);
    if (tsq === null) return new Set();
    const rows = await q.select('videos.id').where(sql<boolean>`videos.search_vector @@ ${tsq}`).execute();
    return new Set(rows.map((r) => r.id));
  }

  /**
   * PostgreSQL: the words as a tsquery, each prefix spelled out as the whole words it starts; null
   * when one starts none, so nothing matches. SQLite: undefined (FTS5 is asked with the words).
   */
  private async tsQuery(words: string[]): Promise<TsQuery | null | undefined> {
    return this.dialect === 'postgres' ? searchTsQuery(this.db, words) : undefined;
  }

  /**
   * The listed matches, newest first, counted up to one past the cap. Above the cap the total is
   * estimated: the share of the newest videos that the counted matches cover, scaled to all of them.
   */
  private async countUpToCap(words: string[], q: TsQuery | undefined): Promise<Count> {
    const cap = this.limits.exactUpTo;
    if (this.dialect === 'sqlite') {
      const newest = sql<{ r: number }>`(select videos_fts.rowid as r from videos_fts join videos on videos.rowid = videos_fts.rowid
        where videos_fts match ${fts5Match(words)} and videos.listed = 1 order by videos_fts.rowid desc limit ${cap + 1})`;
      const row = await this.db.selectFrom(newest.as('m'))
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
    // Counting up to the cap reads about cap / (share of videos that match) rows; when the planner's
    // statistics already say the matches are far more than the cap, its estimate is the total.
    const tsq = q ?? prefixTsQuery(words);
    const plan = await sql<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>`explain (format json)
      select 1 from videos where listed = 1 and search_vector @@ ${tsq}`.execute(this.db);
    const planned = Math.round(Number(plan.rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0));
    if (planned > cap * PLANNER_TRUSTED_ABOVE) {
      const kept = await this.db.selectFrom('counters').select('value').where('key', '=', 'public_videos').executeTakeFirst();
      return { matches: cap + 1, total: planned, listed: Number(kept?.value ?? 0) };
    }
    const newest = sql<{ created_at: number }>`(select created_at from videos
      where listed = 1 and search_vector @@ ${tsq}
      order by created_at desc, id desc limit ${cap + 1})`;
    const row = await this.db.selectFrom(newest.as('m'))
      .select([
        sql<number>`count(*)`.as('n'),
        sql<number>`min(m.created_at)`.as('last'),
        sql<number>`(select max(created_at) from videos where listed = 1)`.as('hi'),
        sql<number>`(select min(created_at) from videos where listed = 1)`.as('lo'),
        sql<number>`(select value from counters where key = 'public_videos')`.as('listed'),
      ])
      .executeTakeFirstOrThrow();
    return { ...estimate(Number(row.n), cap, Number(row.hi) - Number(row.last) + 1, Number(row.hi) - Number(row.lo) + 1), listed: Number(row.listed) };
  }

  /**
   * Relevance order: the listed matches are cut, newest first (SQLite: in the index's order, which is
   * upload order), into blocks of `window`; blocks come in that order, and within a block videos with
   * every word in the title come first, then those with every word in the title or the channel's
   * name, then the rest, each group newest first. Only the one or two blocks the page (and the row
   * after it) falls in are read, so the work is bounded by the window however common the words are,
   * and pages stay disjoint because a block's order never depends on the page asked for.
   */
  private async byRelevance(filter: VideoListFilter, q: TsQuery | undefined): Promise<string[]> {
    const w = this.limits.window;
    const first = Math.floor(filter.offset / w);
    const last = Math.floor((filter.offset + filter.limit) / w);
    const from = first * w;
    const candidates = await this.newestMatches(filter.words, (last - first + 1) * w, from, q);
    const ranked = candidates.map((c, i) => ({ ...c, block: Math.floor(i / w) }))
      .sort((a, b) => a.block - b.block || a.tier - b.tier || Number(b.created_at) - Number(a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return ranked.slice(filter.offset - from, filter.offset - from + filter.limit + 1).map((c) => c.id);
  }

  /** `take` listed matches from the `skip`-th newest on, with their relevance tier. */
  private async newestMatches(words: string[], take: number, skip: number, q: TsQuery | undefined): Promise<Candidate[]> {
    if (this.dialect === 'postgres') {
      const all = (weights: string) => words.map((w) => `'${w.replace(/\\/g, '\\\\').replace(/'/g, "''")}':*${weights}`).join(' & ');
      // The window comes from the index on (listed, created_at, id) or from the search index,
      // whichever the planner expects to be cheaper; the tiers are worked out on its rows alone.
      const window = sql<Candidate>`(select n.id, n.created_at,
          case when v.search_vector @@ to_tsquery('simple', ${all('A')}) then 0
               when v.search_vector @@ to_tsquery('simple', ${all('AB')}) then 1 else 2 end as tier
        from (select id, created_at from videos
          where listed = 1 and search_vector @@ ${q ?? prefixTsQuery(words)}
          order by created_at desc, id desc limit ${take} offset ${skip}) n
        join videos v on v.id = n.id)`;
      const rows = await this.db.selectFrom(window.as('c')).selectAll().orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').execute();
      return rows.map((r) => ({ id: r.id, created_at: Number(r.created_at), tier: Number(r.tier) }));
    }
    const window = sql<{ r: number; id: string; created_at: number }>`(select videos_fts.rowid as r, videos.id, videos.created_at
      from videos_fts join videos on videos.rowid = videos_fts.rowid
      where videos_fts match ${fts5Match(words)} and videos.listed = 1
      order by videos_fts.rowid desc limit ${take} offset ${skip})`;
    const rows = await this.db.selectFrom(window.as('c')).selectAll().execute();
    if (!rows.length) return [];
    // The window is a range of the index's rows: which of them hold the words in the title (or the
    // channel's name) is one more read of that range each, with FTS5's column filters. The bounds are
    // cast because a bound number arrives as a real, and FTS5 then reads the whole list instead.
    const lo = Math.min(...rows.map((r) => Number(r.r)));
    const hi = Math.max(...rows.map((r) => Number(r.r)));
    const inColumns = async (columns: string) => new Set((await this.db
      .selectFrom(sql<{ r: number }>`(select rowid as r from videos_fts
        where videos_fts match ${`{${columns}} : (${fts5Match(words)})`}
        and rowid between cast(${lo} as integer) and cast(${hi} as integer))`.as('t'))
      .selectAll().execute()).map((t) => Number(t.r)));
    const [title, titleOrChannel] = await Promise.all([inColumns('title'), inColumns('title owner_text')]);
    return rows.map((r) => ({
      id: r.id, created_at: Number(r.created_at), tier: title.has(Number(r.r)) ? 0 : titleOrChannel.has(Number(r.r)) ? 1 : 2,
    }));
  }

  /**
   * A walk of the sort index reads about (page end) x (listed videos) / (matches) videos; finding
   * the matches first reads each match. The walk is taken when it reads fewer.
   */
  private walkOrMatches(filter: VideoListFilter, count: Count): 'walk' | 'matches first' {
    return (filter.offset + filter.limit + 1) * count.listed < count.total * count.total ? 'walk' : 'matches first';
  }

  /**
   * An explicit sort: the ids of the page (and one more) in the sort column's order. With many
   * matches the index on (listed, column, id) is walked in order, in batches, each video checked
   * against the words, stopping at the page; with few, the matches are found first and sorted.
   */
  private async inSortOrder(filter: VideoListFilter, how: 'walk' | 'matches first', count: Count, tsq: TsQuery | undefined): Promise<string[]> {
    const column = SORT_COLUMNS[filter.sortBy];
    const wanted = filter.offset + filter.limit + 1;
    if (how === 'walk' && this.dialect === 'sqlite') {
      // FTS5 answers "does this one row match?" slowly (it merges every prefix's list again), so the
      // walk reads the batch's text and checks it the way the index splits words.
      const found: string[] = [];
      // The first batch is about what the share of matching videos says the page needs.
      let batch = Math.min(WALK_BATCH, Math.ceil((wanted * count.listed) / Math.max(1, count.total) * 1.2) + 8);
      for (let skip = 0; found.length < wanted; skip += batch, batch = WALK_BATCH) {
        const rows = await this.db.selectFrom('videos')
          .select(['videos.id', 'videos.title', 'videos.owner_text', 'videos.description'])
          .where(listedVideo())
          .orderBy(column, filter.sortType).orderBy('videos.id', filter.sortType)
          .limit(batch).offset(skip)
          .execute();
        for (const r of rows) if (textMatches([r.title, r.owner_text, r.description], filter.words)) found.push(r.id);
        if (rows.length < batch) break;
      }
      return found.slice(filter.offset, wanted);
    }
    let q: VideosQuery = this.db.selectFrom('videos') as VideosQuery;
    q = this.dialect === 'sqlite'
      ? q.where(sql<boolean>`videos.rowid in (select rowid from videos_fts where videos_fts match ${fts5Match(filter.words)})`)
      // The planner walks the sort index or reads the search index first, by its statistics.
      : q.where(sql<boolean>`videos.search_vector @@ ${tsq ?? prefixTsQuery(filter.words)}`);
    const rows = await q.where(listedVideo()).select('videos.id')
      .orderBy(column, filter.sortType)
      .orderBy('videos.id', filter.sortType)
      .limit(filter.limit + 1)
      .offset(filter.offset)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Card rows of these videos, in the order given. */
  private async cards(ids: string[]): Promise<VideoSummaryRow[]> {
    if (!ids.length) return [];
    const rows = await this.db.selectFrom('videos').innerJoin('users', 'users.id', 'videos.owner_id')
      .select(SUMMARY_COLUMNS).where('videos.id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r.id, r as VideoSummaryRow]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }
}

/**
 * Exact up to the cap. Above it: the counted matches cover the newest `windowSpan` of `allSpan`
 * (row ids on SQLite, upload times on PostgreSQL), and the rest is taken to match as often.
 */
export function estimate(n: number, cap: number, windowSpan: number, allSpan: number): { matches: number; total: number } {
  if (n <= cap) return { matches: n, total: n };
  const share = windowSpan > 0 && allSpan > windowSpan ? allSpan / windowSpan : 1;
  return { matches: n, total: Math.max(n, Math.round(n * share)) };
}
