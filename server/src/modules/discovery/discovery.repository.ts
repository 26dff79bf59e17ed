import { sql } from 'kysely';

const toTsquery = (words: readonly string[]) => sql`to_tsquery('simple', ${tsAnyWord(words)})`;
import type { Db, Dialect } from '../../db/client.js';
import { listedVideo } from '../../db/video-access.js';
import { fts5AnyWord, tsAnyWord } from '../videos/video-search.js';
import { SUMMARY_COLUMNS, type VideoSummaryRow } from '../videos/videos.repository.js';
import { COMMON_SHARE, type MatchBlock, type SimilarMatch } from './similar-ranking.js';

/** Co-watch looks at this many of the video's most recent viewers: recent taste, bounded work. */
const COWATCH_VIEWERS = 500;
/** How far after the video a viewer's history still counts as "watched next", and its weight. */
const COWATCH_STEP_WEIGHTS = [1, 0.5] as const;
const COWATCH_CANDIDATES = 50;
const SAME_CHANNEL_CANDIDATES = 12;

/** The queries behind up next. Every candidate is a listed video: what anyone may see in a list. */
export class DiscoveryRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /**
   * What viewers of the video watched next: for each of its recent viewers, the next one or two
   * videos in their history after it, weighted by step (the very next one counts most), summed.
   * Each step is one look-up in the viewer's history by time, not a numbering of all of it.
   */
  async coWatched(videoId: string): Promise<Map<string, number>> {
    const [first, second] = COWATCH_STEP_WEIGHTS;
    // Ties in time go as the index has them, as the numbering of a viewer's history did before.
    const after = (skip: number) => sql`(select w.video_id from watch_history w
      where w.user_id = seen.user_id and w.watched_at > seen.watched_at
      order by w.watched_at limit 1 offset ${sql.lit(skip)})`;
    // Summed first, then each of the few sums checked against its video (CROSS JOIN keeps SQLite
    // from reading every listed video to join them the other way round).
    const rows = await sql<{ video_id: string; weight: number | string }>`
      with seen as (
        select user_id, watched_at from watch_history where video_id = ${videoId}
        order by watched_at desc limit ${sql.lit(COWATCH_VIEWERS)}
      )
      select g.video_id as video_id, g.weight as weight from (
        select nxt.video_id as video_id, sum(nxt.weight) as weight from (
          select ${after(0)} as video_id, ${sql.lit(first)} as weight from seen
          union all
          select ${after(1)} as video_id, ${sql.lit(second)} as weight from seen
        ) nxt
        where nxt.video_id is not null and nxt.video_id <> ${videoId}
        group by nxt.video_id
      ) g cross join videos
      where videos.id = g.video_id and ${listedVideo()}
      order by g.weight desc, g.video_id
      limit ${sql.lit(COWATCH_CANDIDATES)}`.execute(this.db);
    return new Map(rows.rows.map((r) => [r.video_id, Number(r.weight)]));
  }

  /** The channel's other listed videos, newest first. */
  async sameChannel(videoId: string, ownerId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('videos').select('videos.id')
      .where('videos.owner_id', '=', ownerId).where('videos.id', '<>', videoId).where(listedVideo())
      .orderBy('videos.created_at', 'desc').orderBy('videos.id')
      .limit(SAME_CHANNEL_CANDIDATES)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * The newest `take` listed videos other than this one whose title, description or channel name
   * holds any of the words (whole words, as the search index splits them), newest first, with how
   * many videos the catalogue holds from the oldest of them on (all listed videos when fewer
   * matched). SQLite takes them in the order of the FTS5 index (upload order), which stops after
   * `take`; PostgreSQL walks the (listed, created_at, id) index or reads the search index, whichever
   * its planner expects to be cheaper.
   */
  async newestMatchesOfAny(videoId: string, words: readonly string[], take: number, fewMatches = false): Promise<MatchBlock> {
    if (!words.length) return { rows: [], span: 0, listed: 0 };
    const listed = await this.listedCount();
    if (this.dialect === 'sqlite') {
      const rows = await sql<SimilarMatch & { r: number }>`
        select videos_fts.rowid as r, videos.id, videos.title, videos.owner_text, videos.description
        from videos_fts join videos on videos.rowid = videos_fts.rowid
        where videos_fts match ${fts5AnyWord(words)} and videos.id <> ${videoId} and ${listedVideo()}
        order by videos_fts.rowid desc limit ${sql.lit(take)}`.execute(this.db);
      const oldest = rows.rows.at(-1)?.r;
      const span = rows.rows.length < take || oldest === undefined
        ? listed
        : Number((await sql<{ hi: number }>`select max(rowid) as hi from videos`.execute(this.db)).rows[0]?.hi ?? 0) - Number(oldest) + 1;
      return { rows: rows.rows, span, listed };
    }
    const query = toTsquery(words);
    // The planner guesses the share of matches from statistics and walks the time index when it
    // expects the block soon; for words known to be rare, reading their matches from the search
    // index and sorting them is far cheaper than checking videos one by one down the time index.
    const rows = fewMatches
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
    // Counted up to a cap: beyond it no word of the block can be common (take / cap is below the share).
    const cap = Math.ceil(take / COMMON_SHARE) + 1;
    const counted = await sql<{ n: number | string }>`select count(*) as n from (select 1 from videos
      where ${listedVideo()} and (videos.created_at, videos.id) >= (${Number(oldest.created_at)}, ${oldest.id})
      limit ${sql.lit(cap)}) t`.execute(this.db);
    return { rows: rows.rows, span: Number(counted.rows[0]?.n ?? 0), listed };
  }

  private async listedCount(): Promise<number> {
    const row = await this.db.selectFrom('counters').select('value').where('key', '=', 'public_videos').executeTakeFirst();
    return Number(row?.value ?? 0);
  }

  /** The video's kept ranking (candidate ids, best first) and when it was made, if one is kept. */
  async keptRanking(videoId: string): Promise<{ ranked: string[]; madeAt: number } | undefined> {
    const row = await this.db.selectFrom('related_rankings').select(['ranked', 'made_at']).where('video_id', '=', videoId).executeTakeFirst();
    return row && { ranked: JSON.parse(row.ranked) as string[], madeAt: Number(row.made_at) };
  }

  /**
   * Keeps the video's ranking in place of the one kept before: one small row. Only while the video
   * exists: one deleted meanwhile keeps nothing, as its ranking would have gone with it.
   */
  async keepRanking(videoId: string, ranked: readonly string[], madeAt: number): Promise<void> {
    try {
      await this.db.insertInto('related_rankings').columns(['video_id', 'ranked', 'made_at'])
        .expression((eb) => eb.selectFrom('videos')
          .select(['videos.id', sql<string>`cast(${JSON.stringify(ranked)} as text)`.as('ranked'), sql<number>`cast(${madeAt} as bigint)`.as('made_at')])
          .where('videos.id', '=', videoId))
        .onConflict((oc) => oc.column('video_id').doUpdateSet((eb) => ({ ranked: eb.ref('excluded.ranked'), made_at: eb.ref('excluded.made_at') })))
        .execute();
    } catch (err) {
      // PostgreSQL: the video was deleted between the read above and the foreign key's check.
      if ((err as { code?: string }).code !== '23503') throw err;
    }
  }

  /** Those of the ids that are still listed videos. */
  async listedOf(ids: readonly string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.db.selectFrom('videos').select('videos.id').where('videos.id', 'in', [...ids]).where(listedVideo()).execute();
    return new Set(rows.map((r) => r.id));
  }

  /** Card rows of these videos that are still listed, in no particular order. */
  async cardRows(ids: string[]): Promise<VideoSummaryRow[]> {
    if (!ids.length) return [];
    return this.db.selectFrom('videos').innerJoin('users', 'users.id', 'videos.owner_id')
      .select(SUMMARY_COLUMNS).where('videos.id', 'in', ids).where(listedVideo())
      .execute();
  }
}
