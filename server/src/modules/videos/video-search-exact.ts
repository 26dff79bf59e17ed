import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db, Dialect } from '../../db/client.js';
import type { Database } from '../../db/schema.js';
import { listedVideo } from '../../db/video-access.js';
import { fts5Match } from './video-search.js';
import { prefixTsQuery } from './video-search-words.js';
import { SORT_COLUMNS, SUMMARY_COLUMNS, type VideoListFilter, type VideoSummaryRow } from './video-list.js';

/** A page of a search, its total, and whether that total was counted or estimated. */
export interface SearchPage {
  rows: VideoSummaryRow[];
  total: number;
  counted: boolean;
}

export type VideosQuery = SelectQueryBuilder<Database, 'videos', object>;

/** A channel's search: every match counted, ranked and sorted (a channel holds few videos). */
export async function searchExactly(db: Db, dialect: Dialect, filter: VideoListFilter): Promise<SearchPage> {
  let base = db.selectFrom('videos') as VideosQuery;
  if (filter.ownerId) base = base.where('videos.owner_id', '=', filter.ownerId);
  if (!filter.includeHidden) base = base.where(listedVideo());
  if (dialect === 'sqlite') {
    base = base
      .innerJoin(sql<{ rowid: number }>`videos_fts`.as('videos_fts'), (join) => join.on(sql<boolean>`videos_fts.rowid = videos.rowid`))
      .where(sql<boolean>`videos_fts match ${fts5Match(filter.words)}`) as unknown as VideosQuery;
  } else {
    base = base.where(sql<boolean>`videos.search_vector @@ ${prefixTsQuery(filter.words)}`);
  }
  const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  if (total === 0 || filter.offset >= total) return { rows: [], total, counted: true };
  let q = base.innerJoin('users', 'users.id', 'videos.owner_id').select(SUMMARY_COLUMNS);
  if (filter.byRelevance) {
    q = dialect === 'sqlite'
      ? q.orderBy(sql`bm25(videos_fts, 10.0, 5.0, 1.0)`)
      : q.orderBy(sql`ts_rank(videos.search_vector, ${prefixTsQuery(filter.words)})`, 'desc');
    q = q.orderBy('videos.created_at', 'desc').orderBy('videos.id', 'desc');
  } else {
    q = q.orderBy(SORT_COLUMNS[filter.sortBy], filter.sortType).orderBy('videos.id', filter.sortType);
  }
  const rows = await q.limit(filter.limit).offset(filter.offset).execute();
  return { rows, total, counted: true };
}
