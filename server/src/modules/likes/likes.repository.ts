import type { LikeTarget } from '@reelhouse/contract';
import type { Db } from '../../db/client.js';
import { CommentsRepository } from '../comments/comments.repository.js';
import { VideoWritesRepository } from '../videos/video-writes.repository.js';
import { SUMMARY_COLUMNS, type VideoSummaryRow } from '../videos/videos.repository.js';
import { ACCESS_COLUMNS, type AccessFields, type Viewer, watchableBy } from '../../db/video-access.js';

/** What a like's target looks like to the rules: its counter and the video that decides access. */
export interface LikeTargetRow extends AccessFields {
  likes_count: number;
}

/** Sort keys of the liked-videos list mapped to fixed columns; never a column name from the query. */
const LIKED_SORT = {
  createdAt: 'likes.created_at',
  views: 'videos.views',
  duration: 'videos.duration',
  title: 'videos.title',
} as const;

/** Thrown inside a toggle to roll it back when the target vanished meanwhile. */
class TargetVanished extends Error {}

export class LikesRepository {
  constructor(private readonly db: Db) {}

  /** The target with the access fields of the video it belongs to (itself, or the commented one). */
  findTarget(type: LikeTarget, id: string): Promise<LikeTargetRow | undefined> {
    if (type === 'video') {
      return this.db
        .selectFrom('videos')
        .select(['videos.likes_count', ...ACCESS_COLUMNS])
        .where('id', '=', id)
        .executeTakeFirst();
    }
    return this.db
      .selectFrom('comments')
      .innerJoin('videos', 'videos.id', 'comments.video_id')
      .select(['comments.likes_count', ...ACCESS_COLUMNS])
      .where('comments.id', '=', id)
      .executeTakeFirst();
  }

  async isLiked(userId: string, type: LikeTarget, id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('likes')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('target_type', '=', type)
      .where('target_id', '=', id)
      .executeTakeFirst();
    return Boolean(row);
  }

  /**
   * Flips the user's like on a target and moves the target's counter by what actually changed,
   * in one transaction. The primary key makes a second like impossible; a toggle that loses a race
   * (its insert or delete found the other's work done) changes nothing and so counts nothing.
   * Returns null when the target no longer exists.
   */
  async toggle(userId: string, type: LikeTarget, id: string, now: number): Promise<{ liked: boolean; likesCount: number } | null> {
    const table = type === 'video' ? 'videos' : 'comments';
    try {
      return await this.db.transaction().execute(async (trx) => {
        const removed = await trx
          .deleteFrom('likes')
          .where('user_id', '=', userId)
          .where('target_type', '=', type)
          .where('target_id', '=', id)
          .executeTakeFirst();
        let delta = -Number(removed.numDeletedRows);
        let liked = false;
        if (delta === 0) {
          const added = await trx
            .insertInto('likes')
            .values({ user_id: userId, target_type: type, target_id: id, created_at: now })
            .onConflict((oc) => oc.columns(['user_id', 'target_type', 'target_id']).doNothing())
            .executeTakeFirst();
          delta = Number(added.numInsertedOrUpdatedRows ?? 0);
          liked = true;
        }
        const counted = type === 'video' ? await new VideoWritesRepository(trx).addLikes(id, delta) : await new CommentsRepository(trx).addLikes(id, delta);
        if (!counted) throw new TargetVanished();
        const row = await trx.selectFrom(table).select('likes_count').where('id', '=', id).executeTakeFirstOrThrow();
        return { liked, likesCount: Number(row.likes_count) };
      });
    } catch (err) {
      if (err instanceof TargetVanished) return null;
      throw err;
    }
  }

  /**
   * Removes the likes on everything that goes with a deleted account (likes have no foreign key):
   * on its videos, on its comments and the replies to them, and on the comments under its videos.
   */
  async deleteOnWhatUserOwns(userId: string): Promise<void> {
    const ownVideos = this.db.selectFrom('videos').select('id').where('owner_id', '=', userId);
    const ownComments = this.db.selectFrom('comments').select('id').where('owner_id', '=', userId);
    // Replies to the user's comments go with them by foreign key.
    const repliesToOwnComments = this.db.selectFrom('comments').select('id').where('parent_id', 'in', ownComments);
    const commentsOnOwnVideos = this.db.selectFrom('comments').select('id').where('video_id', 'in', ownVideos);
    await this.db.deleteFrom('likes').where('target_type', '=', 'video').where('target_id', 'in', ownVideos).execute();
    await this.db
      .deleteFrom('likes')
      .where('target_type', '=', 'comment')
      .where((eb) => eb.or([eb('target_id', 'in', ownComments), eb('target_id', 'in', repliesToOwnComments), eb('target_id', 'in', commentsOnOwnVideos)]))
      .execute();
  }

  /** Videos the user liked that the user can still see, one page, with the total. */
  async likedVideos(
    viewer: Viewer,
    page: { offset: number; limit: number; sortBy: keyof typeof LIKED_SORT; sortType: 'asc' | 'desc' },
  ): Promise<{ rows: VideoSummaryRow[]; total: number }> {
    const base = this.db
      .selectFrom('likes')
      .innerJoin('videos', 'videos.id', 'likes.target_id')
      .innerJoin('users', 'users.id', 'videos.owner_id')
      .where('likes.user_id', '=', viewer.id)
      .where('likes.target_type', '=', 'video')
      .where(watchableBy(viewer));
    const [rows, count] = await Promise.all([
      base
        .select(SUMMARY_COLUMNS)
        .orderBy(LIKED_SORT[page.sortBy], page.sortType)
        .orderBy('likes.created_at', 'desc')
        .orderBy('videos.id', 'asc')
        .offset(page.offset)
        .limit(page.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }
}
