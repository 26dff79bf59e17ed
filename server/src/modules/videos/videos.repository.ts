import { type QueryCreator, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Db, Dialect } from '../../db/client.js';
import type { Database, Visibility } from '../../db/schema.js';
import { ListPager } from '../../db/list-paging.js';
import type { PagedList } from '../../db/paged-list.js';
import { listedVideo, refreshVideoAccess } from '../../db/video-access.js';
import { SORT_COLUMNS, SUMMARY_COLUMNS, type VideoListFilter, type VideoSummaryRow } from '../../db/video-list.js';
import type { SearchPage } from '../search/search-strategy.js';
import { VideoWritesRepository } from './video-writes.repository.js';
import { ViewEventsRepository } from './view-events.repository.js';

export { SUMMARY_COLUMNS, type SortField, type SortType, type VideoListFilter, type VideoSummaryRow } from '../../db/video-list.js';
export type VideoRow = Database['videos'];

export interface VideoDetailRow extends VideoSummaryRow {
  failure_reason: string | null;
  width: number | null;
  height: number | null;
  hls_key: string | null;
  storyboard_key: string | null;
  likes_count: number;
  comments_count: number;
  /** Accounts of other servers that shared it. */
  shares_count: number | null;
  owner_subscribers_count: number;
  hidden_reason: string | null;
  appealed_at: number | null;
  /** The live state, for a live video; all null otherwise. */
  live_status: 'upcoming' | 'live' | 'ended' | null;
  live_scheduled_start: number | null;
  live_started_at: number | null;
  live_ended_at: number | null;
  live_viewers: number | null;
}

/** Days since 1970-01-01 in UTC: the key of the daily view counts. */
export const utcDay = (ms: number) => Math.floor(ms / 86_400_000);

export class VideosRepository {
  private readonly pager: ListPager;

  constructor(
    private readonly db: Db,
    dialect: Dialect,
    /** Rows between kept boundaries of a list's sort order (list-paging.ts); tests pass small ones. */
    pageSpacing?: number,
  ) {
    this.pager = new ListPager(db, dialect, pageSpacing);
  }

  findById(id: string) {
    return this.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findOwner(id: string) {
    return this.db.selectFrom('users').select(['id', 'username', 'full_name']).where('id', '=', id).executeTakeFirst();
  }

  findDetail(id: string): Promise<VideoDetailRow | undefined> {
    return this.db
      .selectFrom('videos')
      .innerJoin('users', 'users.id', 'videos.owner_id')
      .leftJoin('lives', 'lives.video_id', 'videos.id')
      .select(SUMMARY_COLUMNS)
      .select([
        'videos.failure_reason',
        'videos.width',
        'videos.height',
        'videos.hls_key',
        'videos.storyboard_key',
        'videos.likes_count',
        'videos.comments_count',
        (eb) =>
          eb
            .selectFrom('federation_shares')
            .select((s) => s.fn.countAll<number>().as('n'))
            .whereRef('federation_shares.video_id', '=', 'videos.id')
            .as('shares_count'),
        'users.subscribers_count as owner_subscribers_count',
        'videos.hidden_reason',
        'videos.appealed_at',
        'lives.status as live_status',
        'lives.scheduled_start as live_scheduled_start',
        'lives.started_at as live_started_at',
        'lives.ended_at as live_ended_at',
        'lives.viewers as live_viewers',
      ])
      .where('videos.id', '=', id)
      .executeTakeFirst();
  }

  /**
   * What the player page shows of one viewer, in one query: whether they like the video, whether
   * they follow its channel, and where they stopped in it (null if never reported).
   */
  async viewerFields(userId: string, videoId: string, ownerId: string): Promise<{ isLiked: boolean; isSubscribed: boolean; watchPosition: number | null }> {
    const row = await this.db
      .selectNoFrom((eb) => [
        eb
          .exists(eb.selectFrom('likes').select('user_id').where('user_id', '=', userId).where('target_type', '=', 'video').where('target_id', '=', videoId))
          .as('liked'),
        eb.exists(eb.selectFrom('subscriptions').select('channel_id').where('subscriber_id', '=', userId).where('channel_id', '=', ownerId)).as('subscribed'),
        eb.selectFrom('watch_history').select('position').where('user_id', '=', userId).where('video_id', '=', videoId).as('position'),
      ])
      .executeTakeFirstOrThrow();
    return {
      isLiked: Boolean(Number(row.liked)),
      isSubscribed: Boolean(Number(row.subscribed)),
      watchPosition: row.position === null || row.position === undefined ? null : Number(row.position),
    };
  }

  /** Where the user stopped in each of these videos, for those they have a saved position in: one query. */
  async watchPositions(userId: string, videoIds: string[]): Promise<Map<string, number>> {
    if (!videoIds.length) return new Map();
    const rows = await this.db
      .selectFrom('watch_history')
      .select(['video_id', 'position'])
      .where('user_id', '=', userId)
      .where('video_id', 'in', videoIds)
      .where('position', 'is not', null)
      .execute();
    return new Map(rows.map((r) => [r.video_id, Number(r.position)]));
  }

  /**
   * One page of videos and their total; a filter with search words goes to the search module instead.
   * A list with a kept total (everything but an owner's own list) reads it in the page's statement;
   * only a page with no rows (past the end) asks for it on its own.
   */
  async list(filter: VideoListFilter): Promise<SearchPage> {
    const base = this.filtered(filter);
    const keptTotal = this.keptTotal(filter);
    if (keptTotal) {
      const rows = await this.pageInSortOrder(base, filter, keptTotal);
      if (rows.length) return { rows, total: Number(rows[0]!.total), counted: true };
    }
    const total = await this.total(filter, base);
    if (total === 0 || filter.offset >= total) return { rows: [], total, counted: true };
    return { rows: await this.pageInSortOrder(base, filter, null), total, counted: true };
  }

  /** Card rows of these videos, in the order given (missing ones left out). */
  async summaries(ids: string[]): Promise<VideoSummaryRow[]> {
    if (!ids.length) return [];
    const rows = await this.db
      .selectFrom('videos')
      .innerJoin('users', 'users.id', 'videos.owner_id')
      .select(SUMMARY_COLUMNS)
      .where('videos.id', 'in', ids)
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * A page of a list in its sort order: the page's ids are found first, from the index on the
   * listed flag and the sort column (which holds the id too), so a deep page skips index entries
   * rather than reading each skipped video and joining its owner; only the page's rows are then
   * read and joined, in the same statement. A deep page of a kept list seeks to its nearest kept
   * boundary instead (list-paging.ts). `total`, when given, is read as a column of every row.
   */
  private async pageInSortOrder(
    base: SelectQueryBuilder<Database, 'videos', object>,
    filter: VideoListFilter,
    total: RawBuilder<number> | null,
  ): Promise<(VideoSummaryRow & { total?: number })[]> {
    const cards = (ids: SelectQueryBuilder<Database, 'videos', { id: string }>) => {
      const q = this.db.selectFrom('videos').innerJoin('users', 'users.id', 'videos.owner_id').select(SUMMARY_COLUMNS).where('videos.id', 'in', ids);
      return total ? q.select(total.as('total')) : q;
    };
    const kept = this.pagedList(filter);
    if (kept && this.pager.isDeep(filter.offset)) return this.pager.pageRows(kept, filter.offset, filter.limit, cards);
    const column = SORT_COLUMNS[filter.sortBy];
    const ids = base.select('videos.id').orderBy(column, filter.sortType).orderBy('videos.id', filter.sortType).limit(filter.limit).offset(filter.offset);
    return cards(ids).orderBy(column, filter.sortType).orderBy('videos.id', filter.sortType).execute();
  }

  /** The list a filter without search words names, if its boundaries are kept (the home feed and channels). */
  private pagedList(filter: VideoListFilter): PagedList | null {
    if (filter.words.length || (filter.includeHidden && !filter.ownerId)) return null;
    const key = !filter.ownerId ? 'feed' : `${filter.includeHidden ? 'all' : 'listed'}:${filter.ownerId}`;
    const sort = SORT_COLUMNS[filter.sortBy].slice('videos.'.length) as PagedList['sort'];
    return { key, sort, desc: filter.sortType === 'desc', rows: (db) => this.filtered(filter, db) };
  }

  /** The kept number of a public list's videos, as a scalar subquery: the site's counter, or the channel's. */
  private keptTotal(filter: VideoListFilter): RawBuilder<number> | null {
    if (filter.includeHidden) return null;
    return filter.ownerId
      ? sql<number>`(select videos_count from users where id = ${filter.ownerId})`
      : sql<number>`(select value from counters where key = 'public_videos')`;
  }

  /** The number of videos: kept counters for the public lists, a count only for owners' own lists. */
  private async total(filter: VideoListFilter, base: SelectQueryBuilder<Database, 'videos', object>): Promise<number> {
    const kept = this.keptTotal(filter);
    if (kept) {
      const row = await this.db.selectNoFrom(kept.as('n')).executeTakeFirst();
      return Number(row?.n ?? 0);
    }
    const row = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private filtered(filter: VideoListFilter, db: QueryCreator<Database> = this.db): SelectQueryBuilder<Database, 'videos', object> {
    let q = db.selectFrom('videos') as SelectQueryBuilder<Database, 'videos', object>;
    if (filter.ownerId) q = q.where('videos.owner_id', '=', filter.ownerId);
    if (!filter.includeHidden) q = q.where(listedVideo());
    return q;
  }

  /** Inserts a new video and refreshes its access flags and its owner's counts in one transaction. */
  async insert(row: VideoRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await new VideoWritesRepository(trx).insert(row);
      await refreshVideoAccess(trx, { ownerId: row.owner_id, videoId: row.id });
    });
  }

  async update(id: string, patch: Partial<Omit<VideoRow, 'id' | 'owner_id'>>): Promise<void> {
    await new VideoWritesRepository(this.db).update(id, patch);
  }

  /**
   * Sets the visibility (and the schedule: null cancels it) and refreshes the access flags and
   * counts in one transaction.
   */
  async setVisibility(id: string, ownerId: string, visibility: Visibility, publishAt: number | null = null): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await new VideoWritesRepository(trx).setVisibility(id, visibility, publishAt);
      await refreshVideoAccess(trx, { ownerId, videoId: id });
    });
  }

  refreshAccess(ownerId: string, videoId?: string): Promise<void> {
    return refreshVideoAccess(this.db, { ownerId, videoId });
  }

  /**
   * Deletes a video with everything that points at it, in one transaction: comments, playlist
   * entries, watch history and view events go by foreign key; likes on the video and on its
   * comments have none and go here; the counters that counted it are recounted.
   */
  async deleteWithCascade(id: string, ownerId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const playlists = (await trx.selectFrom('playlist_videos').select('playlist_id').where('video_id', '=', id).execute()).map((r) => r.playlist_id);
      // Written here, not through the likes and playlists modules: they build on videos, so videos cannot import them.
      await trx.deleteFrom('likes').where('target_type', '=', 'video').where('target_id', '=', id).execute();
      await trx
        .deleteFrom('likes')
        .where('target_type', '=', 'comment')
        .where('target_id', 'in', trx.selectFrom('comments').select('id').where('video_id', '=', id))
        .execute();
      await new VideoWritesRepository(trx).delete(id);
      if (playlists.length) {
        await trx
          .updateTable('playlists')
          .set({ videos_count: sql<number>`(select count(*) from playlist_videos p where p.playlist_id = playlists.id)` })
          .where('id', 'in', playlists)
          .execute();
      }
      await refreshVideoAccess(trx, { ownerId });
    });
  }

  /**
   * Counts a view unless this viewer's last counted view of the video is less than windowMs old
   * (view-events.repository.ts), with the video's counters, in one transaction.
   */
  async countView(videoId: string, viewerKey: string, now: number, windowMs: number): Promise<{ counted: boolean; views: number }> {
    return this.db.transaction().execute(async (trx) => {
      const touched = await new ViewEventsRepository(trx).recordUnlessRecent(videoId, viewerKey, now, windowMs);
      if (touched) {
        await new VideoWritesRepository(trx).addView(videoId);
        await trx
          .insertInto('video_daily_views')
          .values({ video_id: videoId, day: utcDay(now), views: 1 })
          .onConflict((oc) => oc.columns(['video_id', 'day']).doUpdateSet({ views: sql<number>`video_daily_views.views + 1` }))
          .execute();
      }
      const row = await trx.selectFrom('videos').select('views').where('id', '=', videoId).executeTakeFirstOrThrow();
      return { counted: touched, views: Number(row.views) };
    });
  }
}
