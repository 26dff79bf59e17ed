import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/client.js';
import { listedVideo } from '../../db/video-access.js';
import { utcDay } from '../videos/videos.repository.js';

/** One day's weight in trending: views and likes of a day lose half their weight every this many days. */
export const TRENDING_HALF_LIFE_DAYS = 2;
/** Trending looks at today and the days before it, this many in all. */
export const TRENDING_WINDOW_DAYS = 7;
/** A like says more than a view: it counts as this many views. */
export const TRENDING_LIKE_WEIGHT = 5;
/**
 * The rebuild keeps this many videos: twenty pages of fifty. Reading a page never reads more than
 * this, however much of the catalogue was watched this week.
 */
export const TRENDING_KEPT = 1_000;
const DAY_MS = 86_400_000;
/** PostgreSQL: keeps rebuilds by several processes one at a time. */
const TRENDING_LOCK = 350035;

/**
 * The trending list: worked out whole by `rebuild` (a scheduled job), read by position. A video
 * that stopped being listed since the last rebuild, or was deleted, is skipped when read, so it
 * leaves the list at once; one that starts trending appears at the next rebuild.
 */
export class TrendingRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Replaces the list. A video's score is the sum over the last TRENDING_WINDOW_DAYS UTC days of
   * (views + TRENDING_LIKE_WEIGHT x likes) of that day, times 2^(-age / TRENDING_HALF_LIFE_DAYS)
   * where age is 0 for today. Only listed videos with some activity in the window take part; ties go
   * to the most viewed, then by id. Returns how many videos the list holds.
   */
  async rebuild(now: number): Promise<number> {
    const today = utcDay(now);
    const firstDay = today - (TRENDING_WINDOW_DAYS - 1);
    // Literal weights (not parameters): PostgreSQL would type a bare parameter in CASE as integer.
    const decay = (age: ReturnType<typeof sql>) =>
      sql`case ${age} ${sql.join(
        Array.from(
          { length: TRENDING_WINDOW_DAYS },
          (_, d) => sql`when ${sql.lit(d)} then ${sql.lit(Number((2 ** (-d / TRENDING_HALF_LIFE_DAYS)).toFixed(6)))}`,
        ),
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
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${sql.lit(TRENDING_LOCK)})`.execute(trx);
      await trx.deleteFrom('trending_videos').execute();
      const inserted = await sql`
        insert into trending_videos (position, video_id, score, built_at)
        select row_number() over (order by t.score desc, videos.views desc, videos.id), t.video_id, t.score, ${sql.lit(now)}
        from (${scored}) t join videos on videos.id = t.video_id
        where ${listedVideo()} and t.score > 0
        order by t.score desc, videos.views desc, videos.id
        limit ${sql.lit(TRENDING_KEPT)}`.execute(trx);
      return Number(inserted.numAffectedRows ?? 0);
    });
  }

  /** When the list was last rebuilt (ms since the epoch); null when it is empty. */
  async builtAt(): Promise<number | null> {
    const row = await this.db.selectFrom('trending_videos').select('built_at').where('position', '=', 1).executeTakeFirst();
    return row ? Number(row.built_at) : null;
  }

  /**
   * One page of the list's ids, skipping videos no longer listed, and the list's length. Counting
   * what is still listed would look up every kept video on every page; instead the page reads one
   * row more than it shows. A page with more after it answers the length the rebuild kept (more by
   * the few videos unlisted since, until the next rebuild); a short page is the last one and its
   * total is exact, so the total never claims fewer videos than the pages show.
   */
  async page(page: { limit: number; offset: number }): Promise<{ ids: string[]; total: number }> {
    const rows = await this.db
      .selectFrom('trending_videos')
      .innerJoin('videos', 'videos.id', 'trending_videos.video_id')
      .where(listedVideo())
      .select('trending_videos.video_id')
      .orderBy('trending_videos.position')
      .limit(page.limit + 1)
      .offset(page.offset)
      .execute();
    const ids = rows.slice(0, page.limit).map((r) => r.video_id);
    if (rows.length <= page.limit) return { ids, total: page.offset + ids.length };
    const kept = await this.db
      .selectFrom('trending_videos')
      .select((eb) => eb.fn.max('position').as('n'))
      .executeTakeFirst();
    return { ids, total: Math.max(Number(kept?.n ?? 0), page.offset + rows.length) };
  }
}
