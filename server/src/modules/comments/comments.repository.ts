import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/client.js';
import type { Database } from '../../db/schema.js';
import { commentAuthorInGoodStanding, shownRepliesCount } from '../../db/standing-rules.js';
import { ACCESS_COLUMNS, type AccessFields } from '../../db/video-access.js';
import { VideoWritesRepository } from '../videos/video-writes.repository.js';

export type CommentRow = Selectable<Database['comments']>;
/** A comment as it is written: whether its author is banned is read from the author, not given. */
export type NewCommentRow = Omit<CommentRow, 'owner_banned'>;

/** A comment joined with its author, as lists show it. */
export interface CommentWithOwnerRow extends CommentRow {
  owner_username: string;
  owner_full_name: string;
  owner_avatar_key: string | null;
  reply_count: number;
}

/** A comment with the fields of its video that decide who may touch it. */
export interface CommentAccessRow {
  id: string;
  owner_id: string;
  video_id: string;
  /** The top-level comment it replies to, if it is a reply. */
  parent_id: string | null;
  /** Its author is banned: the comment is gone for everyone else. */
  owner_banned: boolean;
  /** Access fields of the video the comment is under. */
  video: AccessFields;
}

/**
 * Top-level comments of authors in good standing, written as the `comments_top_level_page` index's
 * own condition (literals, not parameters) so both databases use that partial index.
 */
function shownTopLevel() {
  return sql<boolean>`comments.parent_id is null and comments.owner_banned = 0`;
}

export class CommentsRepository {
  constructor(private readonly db: Db) {}

  findVideoAccess(videoId: string) {
    return this.db
      .selectFrom('videos')
      .select(['videos.id', ...ACCESS_COLUMNS])
      .where('id', '=', videoId)
      .executeTakeFirst();
  }

  async findAccess(commentId: string): Promise<CommentAccessRow | undefined> {
    const row = await this.db
      .selectFrom('comments')
      .innerJoin('videos', 'videos.id', 'comments.video_id')
      .select(['comments.id as comment_id', 'comments.owner_id as comment_owner_id', 'comments.video_id', 'comments.parent_id', ...ACCESS_COLUMNS])
      .select(sql<number>`case when ${commentAuthorInGoodStanding()} then 0 else 1 end`.as('owner_banned'))
      .where('comments.id', '=', commentId)
      .executeTakeFirst();
    if (!row) return undefined;
    const { comment_id, comment_owner_id, video_id, parent_id, owner_banned, ...video } = row;
    return { id: comment_id, owner_id: comment_owner_id, video_id, parent_id, owner_banned: Number(owner_banned) === 1, video };
  }

  private withOwner() {
    return this.db
      .selectFrom('comments')
      .innerJoin('users as owner', 'owner.id', 'comments.owner_id')
      .selectAll('comments')
      .select(['owner.username as owner_username', 'owner.full_name as owner_full_name', 'owner.avatar_key as owner_avatar_key'])
      .select(shownRepliesCount().as('reply_count'));
  }

  findWithOwner(commentId: string): Promise<CommentWithOwnerRow | undefined> {
    return this.withOwner().where('comments.id', '=', commentId).executeTakeFirst();
  }

  /**
   * One page of a video's top-level comments, the pinned one first, then newest first, with the total.
   *
   * The pinned comment is read on its own and the rest come from the `comments_top_level_page`
   * partial index in its order: the page's ids are found in the index alone (a deep page skips
   * index entries, not rows and their authors), and only those rows are then read and joined.
   */
  async page(videoId: string, offset: number, limit: number): Promise<{ rows: CommentWithOwnerRow[]; total: number }> {
    const [pinned, count] = await Promise.all([
      this.withOwner()
        .where('comments.video_id', '=', videoId)
        .where('comments.parent_id', 'is', null)
        .where('comments.pinned_at', 'is not', null)
        .where(commentAuthorInGoodStanding())
        .executeTakeFirst(),
      this.db
        .selectFrom('comments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('video_id', '=', videoId)
        .where(shownTopLevel())
        .executeTakeFirstOrThrow(),
    ]);
    const pinnedOnPage = pinned !== undefined && offset === 0;
    // With a pinned comment, the others are shifted one place along.
    const restOffset = pinned === undefined ? offset : Math.max(0, offset - 1);
    const restLimit = pinnedOnPage ? limit - 1 : limit;
    let pageIds = this.db.selectFrom('comments').select('comments.id').where('comments.video_id', '=', videoId).where(shownTopLevel());
    if (pinned) pageIds = pageIds.where('comments.id', '<>', pinned.id);
    const rest =
      restLimit <= 0
        ? []
        : await this.withOwner()
            .where('comments.id', 'in', pageIds.orderBy('comments.created_at', 'desc').orderBy('comments.id', 'desc').offset(restOffset).limit(restLimit))
            .orderBy('comments.created_at', 'desc')
            .orderBy('comments.id', 'desc')
            .execute();
    return { rows: pinnedOnPage ? [pinned, ...rest] : rest, total: Number(count.n) };
  }

  /** One page of a comment's replies, oldest first (a conversation reads down), with the total. */
  async replies(parentId: string, offset: number, limit: number): Promise<{ rows: CommentWithOwnerRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.withOwner()
        .where('comments.parent_id', '=', parentId)
        .where(commentAuthorInGoodStanding())
        .orderBy('comments.created_at', 'asc')
        .orderBy('comments.id', 'asc')
        .offset(offset)
        .limit(limit)
        .execute(),
      this.db
        .selectFrom('comments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('parent_id', '=', parentId)
        .where(commentAuthorInGoodStanding())
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /**
   * Pins a comment, unpinning any other of its video in the same transaction, or unpins it.
   * The partial unique index keeps one pinned comment per video even when two pins race; the
   * loser is told so (false).
   */
  async setPinned(commentId: string, videoId: string, pinnedAt: number | null): Promise<boolean> {
    try {
      await this.db.transaction().execute(async (trx) => {
        if (pinnedAt !== null) {
          await trx
            .updateTable('comments')
            .set({ pinned_at: null })
            .where('video_id', '=', videoId)
            .where('pinned_at', 'is not', null)
            .where('id', '<>', commentId)
            .execute();
        }
        await trx.updateTable('comments').set({ pinned_at: pinnedAt }).where('id', '=', commentId).execute();
      });
      return true;
    } catch (err) {
      if (/unique|duplicate/i.test(String((err as Error).message))) return false;
      throw err;
    }
  }

  async setHearted(commentId: string, heartedAt: number | null): Promise<void> {
    await this.db.updateTable('comments').set({ hearted_at: heartedAt }).where('id', '=', commentId).execute();
  }

  /** The kept flag standing-rules.ts reads: every comment of this author hidden (banned) or shown again. */
  async setOwnerBanned(ownerId: string, banned: boolean): Promise<void> {
    await this.db
      .updateTable('comments')
      .set({ owner_banned: banned ? 1 : 0 })
      .where('owner_id', '=', ownerId)
      .execute();
  }

  /** Moves the kept like count by what a like change did; false when the comment is gone. */
  async addLikes(id: string, delta: number): Promise<boolean> {
    const res = await this.db
      .updateTable('comments')
      .set({ likes_count: sql<number>`likes_count + ${delta}` })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Recounts the likes of these comments. */
  async recountLikes(ids: string[]): Promise<void> {
    await this.db
      .updateTable('comments')
      .set({ likes_count: sql<number>`(select count(*) from likes l where l.target_type = 'comment' and l.target_id = comments.id)` })
      .where('id', 'in', ids)
      .execute();
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

  /** Adds a comment and counts it on its video, together. False when the video (or the thread replied to) is gone. */
  async insert(row: NewCommentRow): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (row.parent_id !== null) {
        const thread = await trx.selectFrom('comments').select('id').where('id', '=', row.parent_id).executeTakeFirst();
        if (!thread) return false;
      }
      if (!(await new VideoWritesRepository(trx).countComment(row.video_id))) return false;
      // Sign-in refuses a banned author, but a comment racing its author's ban still starts hidden.
      const ownerBanned = sql<number>`(case when (select u.banned_at from users u where u.id = ${row.owner_id}) is null then 0 else 1 end)`;
      await trx
        .insertInto('comments')
        .values({ ...row, owner_banned: ownerBanned })
        .execute();
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
      // Its replies go with it (by foreign key); the likes on them have no key and go here, not through
      // the likes module, which builds on comments (it moves their like counts).
      await trx
        .deleteFrom('likes')
        .where('target_type', '=', 'comment')
        .where((eb) =>
          eb.or([eb('target_id', '=', commentId), eb('target_id', 'in', trx.selectFrom('comments').select('id').where('parent_id', '=', commentId))]),
        )
        .execute();
      const removed = await trx.deleteFrom('comments').where('id', '=', commentId).executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) return;
      // Recounted rather than decremented: a banned author's comment was never in the count.
      await new VideoWritesRepository(trx).recountComments(videoId);
    });
  }
}
