import { sql } from 'kysely';
import type { Db } from '../../db/client.js';
import { listedVideo } from '../../db/video-access.js';
import { SUMMARY_COLUMNS, type VideoSummaryRow } from '../videos/videos.repository.js';

/** Co-watch looks at this many of the video's most recent viewers: recent taste, bounded work. */
const COWATCH_VIEWERS = 500;
/** How far after the video a viewer's history still counts as "watched next", and its weight. */
const COWATCH_STEP_WEIGHTS = [1, 0.5] as const;
const COWATCH_CANDIDATES = 50;
const SAME_CHANNEL_CANDIDATES = 12;

/** The queries behind up next. Every candidate is a listed video: what anyone may see in a list. */
export class DiscoveryRepository {
  constructor(private readonly db: Db) {}

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
    const rows = await this.db
      .selectFrom('videos')
      .select('videos.id')
      .where('videos.owner_id', '=', ownerId)
      .where('videos.id', '<>', videoId)
      .where(listedVideo())
      .orderBy('videos.created_at', 'desc')
      .orderBy('videos.id')
      .limit(SAME_CHANNEL_CANDIDATES)
      .execute();
    return rows.map((r) => r.id);
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
      await this.db
        .insertInto('related_rankings')
        .columns(['video_id', 'ranked', 'made_at'])
        .expression((eb) =>
          eb
            .selectFrom('videos')
            .select(['videos.id', sql<string>`cast(${JSON.stringify(ranked)} as text)`.as('ranked'), sql<number>`cast(${madeAt} as bigint)`.as('made_at')])
            .where('videos.id', '=', videoId),
        )
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
    const rows = await this.db
      .selectFrom('videos')
      .select('videos.id')
      .where('videos.id', 'in', [...ids])
      .where(listedVideo())
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /** Card rows of these videos that are still listed, in no particular order. */
  async cardRows(ids: string[]): Promise<VideoSummaryRow[]> {
    if (!ids.length) return [];
    return this.db
      .selectFrom('videos')
      .innerJoin('users', 'users.id', 'videos.owner_id')
      .select(SUMMARY_COLUMNS)
      .where('videos.id', 'in', ids)
      .where(listedVideo())
      .execute();
  }
}
