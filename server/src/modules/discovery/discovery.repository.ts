import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/client.js';
import { listedVideo } from '../videos/video-access.js';
import { fts5AnyMatch, tsAnyPrefixQuery } from '../videos/video-search.js';
import { SUMMARY_COLUMNS, utcDay, type VideoSummaryRow } from '../videos/videos.repository.js';

/** Co-watch looks at this many of the video's most recent viewers: recent taste, bounded work. */
const COWATCH_VIEWERS = 500;
/** How far after the video a viewer's history still counts as "watched next", and its weight. */
const COWATCH_STEP_WEIGHTS = [1, 0.5] as const;
const COWATCH_CANDIDATES = 50;
const SAME_CHANNEL_CANDIDATES = 12;
const SIMILAR_CANDIDATES = 20;

/** One day's weight in trending: views and likes of a day lose half their weight every this many days. */
export const TRENDING_HALF_LIFE_DAYS = 2;
/** Trending looks at today and the days before it, this many in all. */
export const TRENDING_WINDOW_DAYS = 7;
/** A like says more than a view: it counts as this many views. */
export const TRENDING_LIKE_WEIGHT = 5;
const DAY_MS = 86_400_000;

/** The queries behind up next and trending. Every candidate is a listed video: what anyone may see in a list. */
export class DiscoveryRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /**
   * What viewers of the video watched next: for each of its recent viewers, the next one or two
   * videos in their history after it, weighted by step (the very next one counts most), summed.
   */
  async coWatched(videoId: string): Promise<Map<string, number>> {
    const [first, second] = COWATCH_STEP_WEIGHTS;
    const rows = await sql<{ video_id: string; weight: number | string }>`
      select nxt.video_id as video_id, sum(case when nxt.step = 1 then ${sql.lit(first)} else ${sql.lit(second)} end) as weight
      from (
        select w.video_id as video_id, row_number() over (partition by w.user_id order by w.watched_at) as step
        from watch_history w
        join (
          select user_id, watched_at from watch_history where video_id = ${videoId}
          order by watched_at desc limit ${sql.lit(COWATCH_VIEWERS)}
        ) seen on seen.user_id = w.user_id and w.watched_at > seen.watched_at
      ) nxt
      join videos on videos.id = nxt.video_id
      where nxt.step <= ${sql.lit(COWATCH_STEP_WEIGHTS.length)} and nxt.video_id <> ${videoId} and ${listedVideo()}
      group by nxt.video_id
      order by weight desc, nxt.video_id
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

  /** Listed videos whose title, description or owner share words with these, best match first (the search index). */
  async similar(videoId: string, words: string[]): Promise<string[]> {
    if (!words.length) return [];
    const rows = this.dialect === 'sqlite'
      ? await sql<{ id: string }>`
          select videos.id as id from videos_fts join videos on videos.rowid = videos_fts.rowid
          where videos_fts match ${fts5AnyMatch(words)} and videos.id <> ${videoId} and ${listedVideo()}
          order by bm25(videos_fts, 10.0, 5.0, 1.0), videos.id
          limit ${sql.lit(SIMILAR_CANDIDATES)}`.execute(this.db)
      : await sql<{ id: string }>`
          select videos.id as id from videos
          where videos.search_vector @@ to_tsquery('simple', ${tsAnyPrefixQuery(words)}) and videos.id <> ${videoId} and ${listedVideo()}
          order by ts_rank(videos.search_vector, to_tsquery('simple', ${tsAnyPrefixQuery(words)})) desc, videos.id
          limit ${sql.lit(SIMILAR_CANDIDATES)}`.execute(this.db);
    return rows.rows.map((r) => r.id);
  }

  /** Card rows of these videos that are still listed, in no particular order. */
  async cardRows(ids: string[]): Promise<VideoSummaryRow[]> {
    if (!ids.length) return [];
    return this.db.selectFrom('videos').innerJoin('users', 'users.id', 'videos.owner_id')
      .select(SUMMARY_COLUMNS).where('videos.id', 'in', ids).where(listedVideo())
      .execute();
  }

  /**
   * One page of trending videos and how many there are. A video's score is the sum over the last
   * TRENDING_WINDOW_DAYS UTC days of (views + TRENDING_LIKE_WEIGHT x likes) of that day, times
   * 2^(-age / TRENDING_HALF_LIFE_DAYS) where age is 0 for today. Only listed videos with some
   * activity in the window take part; ties go to the most viewed, then by id.
   */
  async trending(now: number, page: { limit: number; offset: number }): Promise<{ rows: VideoSummaryRow[]; total: number }> {
    const today = utcDay(now);
    const firstDay = today - (TRENDING_WINDOW_DAYS - 1);
    // Literal weights (not parameters): PostgreSQL would type a bare parameter in CASE as integer.
    const decay = (age: ReturnType<typeof sql>) => sql`case ${age} ${sql.join(
      Array.from({ length: TRENDING_WINDOW_DAYS }, (_, d) => sql`when ${sql.lit(d)} then ${sql.lit(Number((2 ** (-d / TRENDING_HALF_LIFE_DAYS)).toFixed(6)))}`),
      sql` `,
    )} else 0 end`;
    const likeDay = sql`cast(likes.created_at / ${sql.lit(DAY_MS)} as integer)`;
    const scored = sql`
      select s.video_id as video_id, sum(s.score) as score from (
        select video_id, video_daily_views.views * ${decay(sql`(${sql.lit(today)} - video_daily_views.day)`)} as score
        from video_daily_views where video_daily_views.day >= ${sql.lit(firstDay)}
        union all
        select likes.target_id as video_id, ${sql.lit(TRENDING_LIKE_WEIGHT)} * ${decay(sql`(${sql.lit(today)} - ${likeDay})`)} as score
        from likes where likes.target_type = 'video' and likes.created_at >= ${sql.lit(firstDay * DAY_MS)}
      ) s group by s.video_id`;
    const count = await sql<{ n: number | string }>`
      select count(*) as n from (${scored}) t join videos on videos.id = t.video_id where ${listedVideo()} and t.score > 0`.execute(this.db);
    const total = Number(count.rows[0]?.n ?? 0);
    if (total === 0 || page.offset >= total) return { rows: [], total };
    const ranked = await sql<{ video_id: string }>`
      select t.video_id as video_id from (${scored}) t join videos on videos.id = t.video_id
      where ${listedVideo()} and t.score > 0
      order by t.score desc, videos.views desc, videos.id
      limit ${page.limit} offset ${page.offset}`.execute(this.db);
    const order = ranked.rows.map((r) => r.video_id);
    const byId = new Map((await this.cardRows(order)).map((r) => [r.id, r]));
    return { rows: order.map((id) => byId.get(id)).filter((r): r is VideoSummaryRow => r !== undefined), total };
  }
}
