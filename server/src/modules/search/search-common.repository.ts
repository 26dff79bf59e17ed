import type { RawBuilder, SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/client.js';
import type { Database } from '../../db/schema.js';
import { listedVideo } from '../../db/video-access.js';
import { SORT_COLUMNS, SUMMARY_COLUMNS, type VideoListFilter, type VideoSummaryRow } from '../../db/video-list.js';
import type { SearchScope, CueRow, SearchPage } from './search-strategy.js';

/** The queries both databases' searches share around their full-text index. */

export type VideosQuery = SelectQueryBuilder<Database, 'videos', object>;

/** Card rows of these videos, in the order given. */
export async function cards(db: Db, ids: string[]): Promise<VideoSummaryRow[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('videos').innerJoin('users', 'users.id', 'videos.owner_id').select(SUMMARY_COLUMNS).where('videos.id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r as VideoSummaryRow]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The number of listed videos, as kept by the counters. */
export async function listedCount(db: Db): Promise<number> {
  const row = await db.selectFrom('counters').select('value').where('key', '=', 'public_videos').executeTakeFirst();
  return Number(row?.value ?? 0);
}

/** These videos, narrowed to the filter's owner and, unless it includes hidden ones, to listed videos. */
export function videosInScope(db: Db, filter: SearchScope, ids: string[]): VideosQuery {
  let q = db.selectFrom('videos').where('videos.id', 'in', ids);
  if (filter.ownerId) q = q.where('videos.owner_id', '=', filter.ownerId);
  if (!filter.includeHidden) q = q.where(listedVideo());
  return q;
}

/** How a database's index takes part in a channel's search. */
export interface ExactMatching {
  /** The videos holding every word. */
  matching(base: VideosQuery, words: string[]): VideosQuery;
  /** Ordered best match first (ties are broken by recency after it). */
  byRelevance<DB, TB extends keyof DB, O>(q: SelectQueryBuilder<DB, TB, O>, words: string[]): SelectQueryBuilder<DB, TB, O>;
}

/** A channel's search: every match counted, ranked and sorted (a channel holds few videos). */
export async function searchExactly(db: Db, filter: VideoListFilter, index: ExactMatching): Promise<SearchPage> {
  let base = db.selectFrom('videos') as VideosQuery;
  if (filter.ownerId) base = base.where('videos.owner_id', '=', filter.ownerId);
  if (!filter.includeHidden) base = base.where(listedVideo());
  base = index.matching(base, filter.words);
  const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  if (total === 0 || filter.offset >= total) return { rows: [], total, counted: true };
  let q = base.innerJoin('users', 'users.id', 'videos.owner_id').select(SUMMARY_COLUMNS);
  if (filter.byRelevance) {
    q = index.byRelevance(q, filter.words).orderBy('videos.created_at', 'desc').orderBy('videos.id', 'desc');
  } else {
    q = q.orderBy(SORT_COLUMNS[filter.sortBy], filter.sortType).orderBy('videos.id', filter.sortType);
  }
  const rows = await q.limit(filter.limit).offset(filter.offset).execute();
  return { rows, total, counted: true };
}

/** The cues of `matched` (the index's few hundred matching cues) that belong to videos in the scope. */
export function cuesInScope(db: Db, matched: RawBuilder<{ id: number }>, scope: SearchScope): Promise<CueRow[]> {
  let q = db
    .selectFrom(matched.as('matched'))
    .innerJoin('caption_cues', 'caption_cues.id', 'matched.id')
    .innerJoin('videos', 'videos.id', 'caption_cues.video_id')
    .select(['caption_cues.video_id', 'caption_cues.start_ms', 'caption_cues.text']);
  if (scope.ownerId) q = q.where('videos.owner_id', '=', scope.ownerId);
  if (!scope.includeHidden) q = q.where(listedVideo());
  return q.execute();
}
