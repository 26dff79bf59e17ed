import { sql } from 'kysely';
import type { Db } from '../../db/client.js';
import type { Database, Visibility } from '../../db/schema.js';
import { shownCommentsCount } from '../../db/standing-rules.js';

type VideoRow = Database['videos'];
type Changed = Promise<boolean>;

const updated = (res: { numUpdatedRows: bigint }) => Number(res.numUpdatedRows) > 0;

/**
 * Every write to the `videos` table, one statement each, so that a module writing a video in its
 * own transaction builds this on that transaction (`new VideoWritesRepository(trx)`). The kept
 * access flags are refreshed by the callers (db/video-access.ts), in the same transaction.
 */
export class VideoWritesRepository {
  constructor(private readonly db: Db) {}

  async insert(row: VideoRow): Promise<void> {
    await this.db.insertInto('videos').values(row).execute();
  }

  async update(id: string, patch: Partial<Omit<VideoRow, 'id' | 'owner_id'>>): Promise<void> {
    await this.db.updateTable('videos').set(patch).where('id', '=', id).execute();
  }

  async setVisibility(id: string, visibility: Visibility, publishAt: number | null): Promise<void> {
    await this.db.updateTable('videos').set({ visibility, publish_at: publishAt, updated_at: Date.now() }).where('id', '=', id).execute();
  }

  /** Turns the video public if it is still scheduled for `publishAt`. */
  async publishScheduled(id: string, publishAt: number, now: number): Promise<void> {
    await this.db
      .updateTable('videos')
      .set({ visibility: 'public', publish_at: null, updated_at: now })
      .where('id', '=', id)
      .where('publish_at', '=', publishAt)
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('videos').where('id', '=', id).execute();
  }

  /** The owner's name as their videos' search text has it. */
  async setOwnerText(ownerId: string, ownerText: string): Promise<void> {
    await this.db.updateTable('videos').set({ owner_text: ownerText }).where('owner_id', '=', ownerId).execute();
  }

  async addView(id: string): Promise<void> {
    await this.db
      .updateTable('videos')
      .set({ views: sql<number>`views + 1` })
      .where('id', '=', id)
      .execute();
  }

  /** Moves the kept like count by what a like change did; false when the video is gone. */
  async addLikes(id: string, delta: number): Changed {
    return updated(
      await this.db
        .updateTable('videos')
        .set({ likes_count: sql<number>`likes_count + ${delta}` })
        .where('id', '=', id)
        .executeTakeFirst(),
    );
  }

  /** One more shown comment; false when the video is gone. */
  async countComment(id: string): Changed {
    return updated(
      await this.db
        .updateTable('videos')
        .set({ comments_count: sql<number>`comments_count + 1` })
        .where('id', '=', id)
        .executeTakeFirst(),
    );
  }

  /** Recounts the comments the video shows (a banned author's were never in the count). */
  async recountComments(id: string): Promise<void> {
    await this.db.updateTable('videos').set({ comments_count: shownCommentsCount() }).where('id', '=', id).execute();
  }

  /** Recounts the shown comments of every video this user commented on. */
  async recountCommentsOfCommenter(userId: string): Promise<void> {
    await this.db
      .updateTable('videos')
      .set({ comments_count: shownCommentsCount() })
      .where('id', 'in', this.db.selectFrom('comments').select('video_id').where('owner_id', '=', userId))
      .execute();
  }

  /** Recounts the likes and the shown comments of these videos. */
  async recountLikesAndComments(ids: string[]): Promise<void> {
    await this.db
      .updateTable('videos')
      .set({
        likes_count: sql<number>`(select count(*) from likes l where l.target_type = 'video' and l.target_id = videos.id)`,
        comments_count: shownCommentsCount(),
      })
      .where('id', 'in', ids)
      .execute();
  }

  /** A takedown: hidden with the reason its owner sees, and a fresh chance to appeal. */
  async hide(id: string, reason: string, now: number): Promise<void> {
    await this.db.updateTable('videos').set({ hidden_at: now, hidden_reason: reason, appeal_text: null, appealed_at: null }).where('id', '=', id).execute();
  }

  async unhide(id: string): Promise<void> {
    await this.db.updateTable('videos').set({ hidden_at: null, hidden_reason: null }).where('id', '=', id).execute();
  }

  /** Keeps the owner's appeal on a video still taken down and not yet appealed; false otherwise. */
  async claimAppeal(id: string, text: string | null, appealedAt: number): Changed {
    return updated(
      await this.db
        .updateTable('videos')
        .set({ appeal_text: text, appealed_at: appealedAt })
        .where('id', '=', id)
        .where('appealed_at', 'is', null)
        .where('hidden_at', 'is not', null)
        .executeTakeFirst(),
    );
  }

  /** A failed video back to processing; its owner, or undefined when it was not failed (or is gone). */
  async reopenFailed(id: string): Promise<string | undefined> {
    const row = await this.db
      .updateTable('videos')
      .set({ status: 'processing', failure_reason: null, updated_at: Date.now() })
      .where('id', '=', id)
      .where('status', '=', 'failed')
      .returning('owner_id')
      .executeTakeFirst();
    return row?.owner_id;
  }

  /** Ready with its playable file; its owner, or undefined when the row is gone. */
  async markPlayable(id: string, v: { videoKey: string; duration: number; width: number; height: number }): Promise<string | undefined> {
    const row = await this.db
      .updateTable('videos')
      .set({ video_key: v.videoKey, duration: v.duration, width: v.width, height: v.height, status: 'ready', failure_reason: null, updated_at: Date.now() })
      .where('id', '=', id)
      .returning('owner_id')
      .executeTakeFirst();
    return row?.owner_id;
  }

  /** Ready with the live playlist as its HLS source unless the ladder got there first; its owner, or undefined. */
  async markLive(id: string, v: { hlsKey: string; duration: number; width: number; height: number }): Promise<string | undefined> {
    const row = await this.db
      .updateTable('videos')
      .set((eb) => ({
        hls_key: eb.fn.coalesce('hls_key', eb.val(v.hlsKey)),
        duration: v.duration,
        width: v.width,
        height: v.height,
        status: 'ready',
        failure_reason: null,
        updated_at: Date.now(),
      }))
      .where('id', '=', id)
      .where('status', '!=', 'failed')
      .returning('owner_id')
      .executeTakeFirst();
    return row?.owner_id;
  }

  /** Failed with its reason; its owner, or undefined when the row is gone. */
  async markFailed(id: string, reason: string): Promise<string | undefined> {
    const row = await this.db
      .updateTable('videos')
      .set({ status: 'failed', failure_reason: reason, updated_at: Date.now() })
      .where('id', '=', id)
      .returning('owner_id')
      .executeTakeFirst();
    return row?.owner_id;
  }

  async setHlsKey(id: string, key: string): Changed {
    return updated(await this.db.updateTable('videos').set({ hls_key: key, updated_at: Date.now() }).where('id', '=', id).executeTakeFirst());
  }

  async setStoryboardKey(id: string, key: string): Changed {
    return updated(await this.db.updateTable('videos').set({ storyboard_key: key, updated_at: Date.now() }).where('id', '=', id).executeTakeFirst());
  }

  /** Drops the original once every output exists, while source_key still names it; whether this call did. */
  async releaseSourceKey(id: string, sourceKey: string): Changed {
    return updated(
      await this.db
        .updateTable('videos')
        .set({ source_key: null, updated_at: Date.now() })
        .where('id', '=', id)
        .where('source_key', '=', sourceKey)
        .where('status', '!=', 'failed')
        .where('video_key', 'is not', null)
        .where('hls_key', 'is not', null)
        .where('hls_key', 'not like', '%/live/index.m3u8')
        .where('storyboard_key', 'is not', null)
        .executeTakeFirst(),
    );
  }

  /** Progress only moves forward. */
  async raiseProgress(id: string, percent: number): Promise<void> {
    await this.db.updateTable('videos').set({ progress: percent }).where('id', '=', id).where('progress', '<', percent).execute();
  }

  /** The stored upload becomes the playable file as it is, and the video is ready. */
  async serveSourceAsIs(id: string): Promise<void> {
    await this.db
      .updateTable('videos')
      .set((eb) => ({ status: 'ready', progress: 100, video_key: eb.ref('source_key'), updated_at: Date.now() }))
      .where('id', '=', id)
      .execute();
  }

  /** The reason a later step failed, on a video that stays ready. */
  async noteFailure(id: string, reason: string): Promise<void> {
    await this.db.updateTable('videos').set({ failure_reason: reason, updated_at: Date.now() }).where('id', '=', id).execute();
  }
}
