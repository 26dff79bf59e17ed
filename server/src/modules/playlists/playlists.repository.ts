import { sql } from 'kysely';
import type { Db } from '../../db/client.js';
import type { Database } from '../../db/schema.js';
import { ACCESS_COLUMNS, type Viewer, watchableBy } from '../../db/video-access.js';
import { SUMMARY_COLUMNS, type VideoSummaryRow } from '../videos/videos.repository.js';

export type PlaylistRow = Database['playlists'];

/** A video of a playlist as lists of playlists need it. */
export interface ShownVideo {
  id: string;
  thumbnailKey: string;
}

export class PlaylistsRepository {
  constructor(private readonly db: Db) {}

  findById(id: string) {
    return this.db.selectFrom('playlists').selectAll().where('id', '=', id).executeTakeFirst();
  }

  userExists(id: string) {
    return this.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst().then(Boolean);
  }

  findVideoAccess(videoId: string) {
    return this.db
      .selectFrom('videos')
      .select(['videos.id', ...ACCESS_COLUMNS])
      .where('id', '=', videoId)
      .executeTakeFirst();
  }

  /** A user's playlists, newest first; publicOnly leaves out unlisted and private ones. */
  listByOwner(ownerId: string, opts: { publicOnly: boolean }) {
    let query = this.db.selectFrom('playlists').selectAll().where('owner_id', '=', ownerId);
    if (opts.publicOnly) query = query.where('visibility', '=', 'public');
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  /** The owner as a video card shows them. */
  findOwnerProfile(userId: string) {
    return this.db.selectFrom('users').select(['id', 'username', 'full_name', 'avatar_key']).where('id', '=', userId).executeTakeFirst();
  }

  async insert(row: PlaylistRow): Promise<void> {
    await this.db.insertInto('playlists').values(row).execute();
  }

  async update(id: string, patch: Partial<Pick<PlaylistRow, 'name' | 'description' | 'visibility' | 'updated_at'>>): Promise<void> {
    await this.db.updateTable('playlists').set(patch).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('playlists').where('id', '=', id).execute();
  }

  /** Recounts the videos of these playlists, after videos in them went away. */
  async recountVideos(ids: string[]): Promise<void> {
    await this.db
      .updateTable('playlists')
      .set({ videos_count: sql<number>`(select count(*) from playlist_videos p where p.playlist_id = playlists.id)` })
      .where('id', 'in', ids)
      .execute();
  }

  /** The videos in these playlists that the viewer can see (id and thumbnail), in playlist order. */
  async visibleVideoIds(playlistIds: string[], viewer: Viewer | null): Promise<Map<string, ShownVideo[]>> {
    const byPlaylist = new Map<string, ShownVideo[]>(playlistIds.map((id) => [id, []]));
    if (!playlistIds.length) return byPlaylist;
    const rows = await this.db
      .selectFrom('playlist_videos')
      .innerJoin('videos', 'videos.id', 'playlist_videos.video_id')
      .select(['playlist_videos.playlist_id', 'playlist_videos.video_id', 'videos.thumbnail_key'])
      .where('playlist_videos.playlist_id', 'in', playlistIds)
      .where(watchableBy(viewer))
      .orderBy('playlist_videos.position', 'asc')
      .orderBy('playlist_videos.added_at', 'asc')
      .execute();
    for (const r of rows) byPlaylist.get(r.playlist_id)?.push({ id: r.video_id, thumbnailKey: r.thumbnail_key });
    return byPlaylist;
  }

  /** The playlist's videos the viewer can see, as cards, in playlist order. */
  visibleVideos(playlistId: string, viewer: Viewer | null): Promise<VideoSummaryRow[]> {
    return this.db
      .selectFrom('playlist_videos')
      .innerJoin('videos', 'videos.id', 'playlist_videos.video_id')
      .innerJoin('users', 'users.id', 'videos.owner_id')
      .select(SUMMARY_COLUMNS)
      .where('playlist_videos.playlist_id', '=', playlistId)
      .where(watchableBy(viewer))
      .orderBy('playlist_videos.position', 'asc')
      .orderBy('playlist_videos.added_at', 'asc')
      .execute();
  }

  /**
   * Appends a video at the end; a video already there stays where it is (the primary key makes a
   * duplicate impossible). The counter moves only when a row was really added.
   */
  async addVideo(playlistId: string, videoId: string, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // Touching the playlist row first takes its lock, so concurrent adds to one playlist run one
      // after another (PostgreSQL would otherwise let two read the same last position).
      await trx.updateTable('playlists').set({ updated_at: now }).where('id', '=', playlistId).execute();
      const last = await trx
        .selectFrom('playlist_videos')
        .select((eb) => eb.fn.max('position').as('max'))
        .where('playlist_id', '=', playlistId)
        .executeTakeFirst();
      const added = await trx
        .insertInto('playlist_videos')
        .values({ playlist_id: playlistId, video_id: videoId, position: Number(last?.max ?? 0) + 1, added_at: now })
        .onConflict((oc) => oc.columns(['playlist_id', 'video_id']).doNothing())
        .executeTakeFirst();
      if (Number(added.numInsertedOrUpdatedRows ?? 0) === 0) return;
      await trx
        .updateTable('playlists')
        .set({ videos_count: sql<number>`videos_count + 1` })
        .where('id', '=', playlistId)
        .execute();
    });
  }

  async removeVideo(playlistId: string, videoId: string, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const removed = await trx.deleteFrom('playlist_videos').where('playlist_id', '=', playlistId).where('video_id', '=', videoId).executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) return;
      await trx
        .updateTable('playlists')
        .set({ videos_count: sql<number>`videos_count - 1`, updated_at: now })
        .where('id', '=', playlistId)
        .execute();
    });
  }
}
