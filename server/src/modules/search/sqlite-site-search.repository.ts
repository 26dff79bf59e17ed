import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/client.js';
import { listedVideo } from '../../db/video-access.js';
import { SORT_COLUMNS, type VideoListFilter } from '../../db/video-list.js';
import { estimate, type MatchCount, type SortRead, trustedEstimate } from './bounded-search.js';
import { fts5Spelled, WORDS_PER_PREFIX } from './query-syntax.js';
import type { Blocks, SiteSearch } from './search-strategy.js';
import { textMatches } from './search-words.js';

/** How many videos an explicit sort reads at a time while it walks its index. */
const WALK_BATCH = 200;

/** How many of the newest listed matches show how densely the words match, when no block was read. */
const DENSITY_SAMPLE = 200;

/** Only plain letters and digits: then the typed word's whole words are a range of search_words. */
const PLAIN = /^[a-z0-9]+$/;

/**
 * The bounded search over the whole site for these words on SQLite, or null when one of them
 * starts no word any video holds. Each plain typed word is spelled out as the whole words of
 * search_words it starts (docs/decisions/0043-newest-first-search.md): FTS5 reads whole words
 * lazily from the newest row and stops, while a prefix longer than the index's prefix lengths
 * makes it merge every list the prefix starts, whole, before the first row.
 */
export async function sqliteSiteSearch(db: Db, words: string[]): Promise<SiteSearch | null> {
  const plain = words.map((w, i) => ({ w, i })).filter(({ w }) => PLAIN.test(w));
  const started: (string[] | null)[] = words.map(() => null);
  // How many videos hold each typed word (at most: a video holding two of its words counts twice).
  const holding: number[] = words.map(() => Infinity);
  if (plain.length) {
    const ranges = plain.map(
      ({ w, i }) => sql`select * from (select ${i} as i, word, videos from search_words
        where word >= ${w} and word < ${after(w)} and videos > 0 order by word limit ${WORDS_PER_PREFIX + 1})`,
    );
    const rows = { rows: await read(db, sql<{ i: number; word: string; videos: number }>`${sql.join(ranges, sql` union all `)}`) };
    for (const { i } of plain) started[i] = [];
    for (const r of rows.rows) started[Number(r.i)]!.push(r.word);
    for (const { i } of plain) {
      const list = started[i]!;
      if (list.length === 0) return null;
      if (list.length > WORDS_PER_PREFIX) started[i] = null;
      else holding[i] = rows.rows.filter((r) => Number(r.i) === i).reduce((n, r) => n + Number(r.videos), 0);
    }
  }
  return new SqliteSiteSearch(db, words, fts5Spelled(words, started), holding);
}

/** What a read of the newest matches saw: how many it read from the newest on, and the oldest row id. */
interface Reach {
  read: number;
  oldest: number;
  /** The read ended before it had all it asked for: `read` is every listed match. */
  ended: boolean;
}

/** The row ids the catalogue spans, and how many videos are listed. */
interface Catalogue {
  hi: number;
  lo: number;
  listed: number;
}

/** The columns of Catalogue; each bound its own subquery, as min and max together read the whole table. */
const CATALOGUE = sql`(select max(rowid) from videos) as hi, (select min(rowid) from videos) as lo,
  (select value from counters where key = 'public_videos') as listed`;

/** The bounded search's reads for one set of words, from FTS5 (blocks in upload order). */
class SqliteSiteSearch implements SiteSearch {
  /** Set by the block read, which the count then needs not repeat. */
  private reach: Reach | null = null;
  /** Set by the block read too, so the count needs no query of its own to know the catalogue. */
  private catalogue: Catalogue | null = null;

  constructor(
    private readonly db: Db,
    private readonly words: string[],
    private readonly match: string,
    /** How many videos hold each typed word, Infinity where not known. */
    private readonly holding: number[],
  ) {}

  /**
   * Exact when the words' counts say few videos can match, or when a block read reached the end.
   * When both the counts (taken as independent words) and the density of the newest matches put
   * the total far above the cap, that density is the total and nothing is counted; otherwise the
   * matches are counted up to the cap, newest first, as before.
   */
  async countUpTo(cap: number): Promise<MatchCount> {
    const { hi, lo, listed } = this.catalogue ?? (await read(this.db, sql<Catalogue>`select ${CATALOGUE}`))[0]!;
    const all = Number(hi) - Number(lo) + 1;
    const atMost = Math.min(...this.holding);
    const reach = this.reach ?? (atMost <= cap ? null : await this.reachOf());
    if (reach?.ended) return { matches: reach.read, total: reach.read, listed: Number(listed) };
    if (reach && atMost > cap) {
      const byCounts = this.holding.reduce((n, h) => (n * Math.min(h, all)) / all, all);
      const byDensity = estimate(reach.read, 0, Number(hi) - reach.oldest + 1, all).total;
      // No more videos can match than hold the rarest word: the density is capped by that.
      const total = trustedEstimate(cap, byCounts, Math.min(atMost, byDensity));
      if (total !== null) return { matches: cap + 1, total, listed: Number(listed) };
    }
    const newest = sql<{ r: number }>`(select videos_fts.rowid as r from videos_fts join videos on videos.rowid = videos_fts.rowid
      where videos_fts match ${this.match} and videos.listed = 1 order by videos_fts.rowid desc limit ${cap + 1})`;
    const row = await this.db
      .selectFrom(newest.as('m'))
      .select([sql<number>`count(*)`.as('n'), sql<number>`min(m.r)`.as('last')])
      .executeTakeFirstOrThrow();
    return { ...estimate(Number(row.n), cap, Number(hi) - Number(row.last) + 1, all), listed: Number(listed) };
  }

  /** How far back the newest few listed matches reach: a sample of their density. */
  private async reachOf(): Promise<Reach> {
    const sample = DENSITY_SAMPLE;
    const rows = await read(
      this.db,
      sql<{ n: number; oldest: number }>`select count(*) as n, min(r) as oldest from
      (select videos_fts.rowid as r from videos_fts join videos on videos.rowid = videos_fts.rowid
      where videos_fts match ${this.match} and videos.listed = 1 order by videos_fts.rowid desc limit ${sample})`,
    );
    const n = Number(rows[0]?.n ?? 0);
    return { read: n, oldest: Number(rows[0]?.oldest ?? 0), ended: n < sample };
  }

  /**
   * One statement: the blocks' rows newest first, which of them hold the words in the title (or the
   * channel's name), by FTS5's column filters over the blocks' range of row ids alone, and their
   * order (bounded-search.ts's pageByRelevance, in SQL) down to the page's ids and the one after it.
   * The column filters read their range newest first: FTS5 seeks the upper end of a list cheaper
   * than the lower one.
   */
  async relevancePage(blocks: Blocks, offset: number, limit: number, window: number): Promise<string[]> {
    const { skip, take } = blocks;
    const inColumns = (columns: string) => sql`r in (select rowid from videos_fts where videos_fts match ${`{${columns}} : (${this.match})`}
      and rowid between (select lo from span) and (select hi from span) order by rowid desc)`;
    const rows = await read(
      this.db,
      sql<{ id: string; n: number; oldest: number; b: number; tier: number; created_at: number } & Catalogue>`
      with block as materialized (select videos_fts.rowid as r, videos.id, videos.created_at
        from videos_fts join videos on videos.rowid = videos_fts.rowid
        where videos_fts match ${this.match} and videos.listed = 1
        order by videos_fts.rowid desc limit ${take} offset ${skip}),
      span as materialized (select count(*) as n, min(r) as lo, max(r) as hi from block),
      catalogue as materialized (select ${CATALOGUE}),
      ranked as (select id, created_at, ${blockOf(take, window)} as b,
        case when ${inColumns('title')} then 0 when ${inColumns('title owner_text')} then 1 else 2 end as tier from block)
      select ranked.*, span.n, span.lo as oldest, catalogue.* from ranked, span, catalogue
      order by b, tier, created_at desc, id desc limit ${limit + 1} offset ${offset - skip}`,
      sql`b, tier, created_at desc, id desc`,
    );
    const first = rows[0];
    // A page past the end returns no row, and nothing of how far the read reached: the count finds out.
    this.reach = first ? { read: skip + Number(first.n), oldest: Number(first.oldest), ended: Number(first.n) < take } : null;
    this.catalogue = first ?? null;
    return rows.map((r) => r.id);
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
      .where(sql<boolean>`videos.rowid in (select rowid from videos_fts where videos_fts match ${this.match})`)
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

/**
 * Which block of the read a row falls in. A page reads one or two blocks: the second starts after
 * the first `window` rows, told by one look at the boundary's row id, where numbering every row
 * with a window function sorts the read again (0.2 ms of a rare word's 0.5).
 */
function blockOf(take: number, window: number): RawBuilder<number> {
  const w = Math.floor(window);
  if (take <= 2 * w) return sql<number>`case when r >= coalesce((select r from block order by r desc limit 1 offset ${sql.lit(w - 1)}), 0) then 0 else 1 end`;
  return sql<number>`(row_number() over (order by r desc) - 1) / ${sql.lit(w)}`;
}

/**
 * A raw read wrapped as a SELECT: the read pool (sqlite-read-pool.ts) runs only SELECTs off the main
 * thread, in the order `orderBy` gives when the order matters.
 */
async function read<R>(db: Db, query: RawBuilder<R>, orderBy?: RawBuilder<unknown>): Promise<R[]> {
  const q = db.selectFrom(sql<R>`(${query})`.as('q')).selectAll();
  return (await (orderBy ? q.orderBy(orderBy) : q).execute()) as R[];
}

/** The first string after every string starting with `word`, in byte order (plain words only). */
function after(word: string): string {
  return word.slice(0, -1) + String.fromCharCode(word.charCodeAt(word.length - 1) + 1);
}
