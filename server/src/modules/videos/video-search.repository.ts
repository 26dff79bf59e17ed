import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db, Dialect } from '../../db/client.js';
import type { Database } from '../../db/schema.js';
import { listedVideo } from './video-access.js';
import { fts5Match, tsPrefixQuery } from './video-search.js';
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

export const SEARCH_LIMITS: SearchLimits = { window: 500, exactUpTo: 10_000 };

/** A page of a search, its total, and whether that total was counted or estimated. */
export interface SearchPage {
  rows: VideoSummaryRow[];
  total: number;
  counted: boolean;
}

type VideosQuery = SelectQueryBuilder<Database, 'videos', object>;
interface Candidate { k: string | number; score: number; pos: number }

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
    if (filter.ownerId || filter.includeHidden) return this.exact(filter);
    const { matches, total } = await this.countUpToCap(filter.words);
    const counted = matches <= this.limits.exactUpTo;
    if (counted && (matches === 0 || filter.offset >= matches)) return { rows: [], total: matches, counted };
    const rows = filter.byRelevance
      ? await this.byRelevance(filter)
      : await this.inSortOrder(filter, counted);
    if (counted) return { rows: rows.slice(0, filter.limit), total: matches, counted };
    // One row past the page says whether another page exists, and the total never contradicts it:
    // a full page with more after it claims at least one more, a short page is the last one, and a
    // page past the end says the list ends at the matches that were counted.
    const hasMore = rows.length > filter.limit;
    const seen = filter.offset + Math.min(rows.length, filter.limit);
    return {
      rows: rows.slice(0, filter.limit),
      total: hasMore ? Math.max(total, seen + 1) : rows.length ? seen : matches,
      counted,
    };
  }

  /** Which of these videos the filter's words match: a check of a few ids, each against the index. */
  async matchingAmong(filter: VideoListFilter, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    let q = this.db.selectFrom('videos').select('videos.id').where('videos.id', 'in', ids);
    if (filter.ownerId) q = q.where('videos.owner_id', '=', filter.ownerId);
    if (!filter.includeHidden) q = q.where(listedVideo());
    q = this.dialect === 'sqlite'
      ? q.where(sql<boolean>`exists (select 1 from videos_fts where videos_fts match ${fts5Match(filter.words)} and videos_fts.rowid = videos.rowid)`)
      : q.where(sql<boolean>`videos.search_vector @@ to_tsquery('simple', ${tsPrefixQuery(filter.words)})`);
    const rows = await q.execute();
    return new Set(rows.map((r) => r.id));
  }

  /**
   * The listed matches, newest first, counted up to one past the cap. Above the cap the total is
   * estimated: the share of the newest videos that the counted matches cover, scaled to all of them.
   */
  private async countUpToCap(words: string[]): Promise<{ matches: number; total: number }> {
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
        ])
        .executeTakeFirstOrThrow();
      return estimate(Number(row.n), cap, Number(row.hi) - Number(row.last) + 1, Number(row.hi) - Number(row.lo) + 1);
    }
    const newest = sql<{ created_at: number }>`(select created_at from videos
      where listed = 1 and search_vector @@ to_tsquery('simple', ${tsPrefixQuery(words)})
      order by created_at desc, id desc limit ${cap + 1})`;
    const row = await this.db.selectFrom(newest.as('m'))
      .select([
        sql<number>`count(*)`.as('n'),
        sql<number>`min(m.created_at)`.as('last'),
        sql<number>`(select max(created_at) from videos where listed = 1)`.as('hi'),
        sql<number>`(select min(created_at) from videos where listed = 1)`.as('lo'),
      ])
      .executeTakeFirstOrThrow();
    return estimate(Number(row.n), cap, Number(row.hi) - Number(row.last) + 1, Number(row.hi) - Number(row.lo) + 1);
  }

  /**
   * Relevance order: the listed matches are cut, newest first, into blocks of `window`; blocks come
   * in that order and each is ranked by relevance (title above channel name above description), then
   * newest first. Only the one or two blocks the page (and the row after it) falls in are read and
   * ranked, so the work is bounded by the window however common the words are, and pages stay
   * disjoint because a block's rank never depends on the page asked for.
   */
  private async byRelevance(filter: VideoListFilter): Promise<VideoSummaryRow[]> {
    const w = this.limits.window;
    const first = Math.floor(filter.offset / w);
    const last = Math.floor((filter.offset + filter.limit) / w);
    const from = first * w;
    const take = (last - first + 1) * w;
    // Each candidate: its key, its score (smaller is better) and its place in the newest-first order.
    const candidates = this.dialect === 'sqlite'
      // bm25 is smaller for better matches; title counts most, then the owner's name, then the description.
      ? sql<Candidate>`(select n.rowid as k, n.score, row_number() over (order by n.rowid desc) as pos from (
          select videos_fts.rowid as rowid, bm25(videos_fts, 10.0, 5.0, 1.0) as score
          from videos_fts join videos on videos.rowid = videos_fts.rowid
          where videos_fts match ${fts5Match(filter.words)} and videos.listed = 1
          order by videos_fts.rowid desc limit ${take} offset ${from}) n)`
      // The window is found by the index on (listed, created_at, id) or the search index, whichever
      // the planner expects to be cheaper; ts_rank runs only on the window's rows.
      : sql<Candidate>`(select n.id as k, -ts_rank(v.search_vector, to_tsquery('simple', ${tsPrefixQuery(filter.words)})) as score,
          row_number() over (order by n.created_at desc, n.id desc) as pos from (
            select id, created_at from videos
            where listed = 1 and search_vector @@ to_tsquery('simple', ${tsPrefixQuery(filter.words)})
            order by created_at desc, id desc limit ${take} offset ${from}) n
          join videos v on v.id = n.id)`;
    const joinOn = this.dialect === 'sqlite' ? sql<boolean>`videos.rowid = c.k` : sql<boolean>`videos.id = c.k`;
    return this.db.selectFrom(candidates.as('c'))
      .innerJoin('videos', (j) => j.on(joinOn))
      .innerJoin('users', 'users.id', 'videos.owner_id')
      .select(SUMMARY_COLUMNS)
      // A literal, so that both databases divide whole numbers (a bound number may arrive as a real).
      .orderBy(sql`(c.pos - 1) / ${sql.lit(Math.floor(w))}`)
      .orderBy('c.score')
      .orderBy('videos.created_at', 'desc')
      .orderBy('videos.id', 'desc')
      .limit(filter.limit + 1)
      .offset(filter.offset - from)
      .execute() as Promise<VideoSummaryRow[]>;
  }

  /**
   * An explicit sort: the ids of the page (and one more) in the sort column's order, then their
   * cards. With many matches the index on (listed, column, id) is walked in order, each video checked
   * against the search index, stopping at the page; with few, the matches are found first and sorted.
   */
  private async inSortOrder(filter: VideoListFilter, fewMatches: boolean): Promise<VideoSummaryRow[]> {
    const column = SORT_COLUMNS[filter.sortBy];
    let ids: VideosQuery = this.db.selectFrom('videos') as VideosQuery;
    if (this.dialect === 'sqlite') {
      ids = fewMatches
        ? ids.where(sql<boolean>`videos.rowid in (select rowid from videos_fts where videos_fts match ${fts5Match(filter.words)})`)
        : ids.where(sql<boolean>`exists (select 1 from videos_fts where videos_fts match ${fts5Match(filter.words)} and videos_fts.rowid = videos.rowid)`);
    } else {
      ids = ids.where(sql<boolean>`videos.search_vector @@ to_tsquery('simple', ${tsPrefixQuery(filter.words)})`);
    }
    const page = ids.where(listedVideo()).select('videos.id')
      .orderBy(column, filter.sortType)
      .orderBy('videos.id', filter.sortType)
      .limit(filter.limit + 1)
      .offset(filter.offset);
    return this.db.selectFrom('videos')
      .innerJoin('users', 'users.id', 'videos.owner_id')
      .select(SUMMARY_COLUMNS)
      .where('videos.id', 'in', page)
      .orderBy(column, filter.sortType)
      .orderBy('videos.id', filter.sortType)
      .execute();
  }

  /** A channel's search: every match counted, ranked and sorted (a channel holds few videos). */
  private async exact(filter: VideoListFilter): Promise<SearchPage> {
    let base = this.db.selectFrom('videos') as VideosQuery;
    if (filter.ownerId) base = base.where('videos.owner_id', '=', filter.ownerId);
    if (!filter.includeHidden) base = base.where(listedVideo());
    if (this.dialect === 'sqlite') {
      base = base
        .innerJoin(sql<{ rowid: number }>`videos_fts`.as('videos_fts'), (join) => join.on(sql<boolean>`videos_fts.rowid = videos.rowid`))
        .where(sql<boolean>`videos_fts match ${fts5Match(filter.words)}`) as unknown as VideosQuery;
    } else {
      base = base.where(sql<boolean>`videos.search_vector @@ to_tsquery('simple', ${tsPrefixQuery(filter.words)})`);
    }
    const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const total = Number(counted.n);
    if (total === 0 || filter.offset >= total) return { rows: [], total, counted: true };
    let q = base.innerJoin('users', 'users.id', 'videos.owner_id').select(SUMMARY_COLUMNS);
    if (filter.byRelevance) {
      q = this.dialect === 'sqlite'
        ? q.orderBy(sql`bm25(videos_fts, 10.0, 5.0, 1.0)`)
        : q.orderBy(sql`ts_rank(videos.search_vector, to_tsquery('simple', ${tsPrefixQuery(filter.words)}))`, 'desc');
      q = q.orderBy('videos.created_at', 'desc').orderBy('videos.id', 'desc');
    } else {
      q = q.orderBy(SORT_COLUMNS[filter.sortBy], filter.sortType).orderBy('videos.id', filter.sortType);
    }
    const rows = await q.limit(filter.limit).offset(filter.offset).execute();
    return { rows, total, counted: true };
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
