import { sql } from 'kysely';
import type { Db } from '../../db/client.js';
import type { Database } from '../../db/schema.js';
import { commentAuthorInGoodStanding, shownCommentsCount } from '../moderation/standing-rules.js';
import { ACCESS_COLUMNS, type AccessFields } from '../videos/video-access.js';

export type CommentRow = Database['comments'];

/** A comment joined with its author, as lists show it. */
export interface CommentWithOwnerRow extends CommentRow {
  owner_username: string;
  owner_full_name: string;
  owner_avatar_key: string | null;
}

/** A comment with the fields of its video that decide who may touch it. */
export interface CommentAccessRow {
  id: string;
  owner_id: string;
  video_id: string;
  /** Access fields of the video the comment is under. */
  video: AccessFields;
}

export class CommentsRepository {
  constructor(private readonly db: Db) {}

  findVideoAccess(videoId: string) {
    return this.db.selectFrom('videos').select(['videos.id', ...ACCESS_COLUMNS]).where('id', '=', videoId).executeTakeFirst();
  }

  async findAccess(commentId: string): Promise<CommentAccessRow | undefined> {
    const row = await this.db
      .selectFrom('comments')
      .innerJoin('videos', 'videos.id', 'comments.video_id')
      .select(['comments.id as comment_id', 'comments.owner_id as comment_owner_id', 'comments.video_id', ...ACCESS_COLUMNS])
      .where('comments.id', '=', commentId)
      .executeTakeFirst();
    if (!row) return undefined;
    const { comment_id, comment_owner_id, video_id, ...video } = row;
    return { id: comment_id, owner_id: comment_owner_id, video_id, video };
  }

  private withOwner() {
    return this.db
      .selectFrom('comments')
      .innerJoin('users as owner', 'owner.id', 'comments.owner_id')
      .selectAll('comments')
      .select(['owner.username as owner_username', 'owner.full_name as owner_full_name', 'owner.avatar_key as owner_avatar_key']);
  }

  findWithOwner(commentId: string): Promise<CommentWithOwnerRow | undefined> {
    return this.withOwner().where('comments.id', '=', commentId).executeTakeFirst();
  }

  /** One page of a video's comments, newest first, with the total. */
  async page(videoId: string, offset: number, limit: number): Promise<{ rows: CommentWithOwnerRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.withOwner()
        .where('comments.video_id', '=', videoId)
        .where(commentAuthorInGoodStanding())
        .orderBy('comments.created_at', 'desc')
        .orderBy('comments.id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute(),
      this.db.selectFrom('comments').select((eb) => eb.fn.countAll<number>().as('n')).where('video_id', '=', videoId).where(commentAuthorInGoodStanding()).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** Which of these comments the user likes. */
  async likedBy(userId: string, commentIds: string[]): Promise<Set<string>> {
    if (!commentIds.length) return new Set();
    const rows = await this.db
      .selectFrom('likes')
      .select('target_id')
      .where('user_id', '=', userId)
      .where('target_type', '=', 'comment')
      .where('target_id', 'in', commentIds)
      .execute();
    return new Set(rows.map((r) => r.target_id));
  }

  /** Adds a comment and counts it on its video, together. False when the video is gone. */
  async insert(row: CommentRow): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const counted = await trx
        .updateTable('videos')
        .set({ comments_count: sql<number>`comments_count + 1` })
        .where('id', '=', row.video_id)
        .executeTakeFirst();
      if (Number(counted.numUpdatedRows) === 0) return false;
      await trx.insertInto('comments').values(row).execute();
      return true;
    });
  }

  async updateContent(commentId: string, content: string, now: number): Promise<void> {
    await this.db.updateTable('comments').set({ content, updated_at: now }).where('id', '=', commentId).execute();
  }

  /**
   * Removes a comment with the likes on it (likes have no foreign key) and uncounts it on its
   * video, together. A second delete racing this one finds nothing and uncounts nothing.
   */
  async delete(commentId: string, videoId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('likes').where('target_type', '=', 'comment').where('target_id', '=', commentId).execute();
      const removed = await trx.deleteFrom('comments').where('id', '=', commentId).executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) return;
      // Recounted rather than decremented: a banned author's comment was never in the count.
      await trx.updateTable('videos').set({ comments_count: shownCommentsCount() }).where('id', '=', videoId).execute();
    });
  }
}
