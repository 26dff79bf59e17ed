import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/client.js';
import type { Database, Role } from '../../db/schema.js';
import { commentAuthorInGoodStanding } from '../../db/standing-rules.js';
import { ACCESS_COLUMNS, type AccessFields } from '../../db/video-access.js';

export type NotificationRow = Database['notifications'];

/** A notification with what it shows: the actor, the video and the comment. */
export interface NotificationViewRow {
  id: string;
  kind: NotificationRow['kind'];
  read_at: number | null;
  created_at: number;
  reason: string | null;
  actor_id: string | null;
  actor_username: string | null;
  actor_full_name: string | null;
  actor_avatar_key: string | null;
  video_id: string | null;
  video_title: string | null;
  video_thumbnail_key: string | null;
  comment_id: string | null;
  comment_content: string | null;
  comment_parent_id: string | null;
}

export interface VideoFacts extends AccessFields {
  id: string;
  listed: number;
  failure_reason: string | null;
}

/**
 * A notification is shown only while its recipient could still open what it is about: the video is
 * watchable (or theirs), the comment's author and the actor are not banned. Rows stay; a video made
 * public again or an unbanned account brings them back.
 */
const STILL_VISIBLE = sql<SqlBool>`(notifications.video_id is null or videos.watchable = 1 or videos.owner_id = notifications.user_id)
  and (notifications.comment_id is null or ${commentAuthorInGoodStanding()})
  and (notifications.actor_id is null or actor.banned_at is null)`;

/**
 * - `exactUpTo`: a user's visible notifications are counted exactly up to this many; above it the
 *   total is the number of all their notification rows (the hidden ones are few: a banned actor, a
 *   video taken down), never less than the pages already seen prove.
 */
export interface NotificationLimits {
  exactUpTo: number;
}

export const NOTIFICATION_LIMITS: NotificationLimits = { exactUpTo: 1_000 };

export class NotificationsRepository {
  constructor(
    private readonly db: Db,
    private readonly limits: NotificationLimits = NOTIFICATION_LIMITS,
  ) {}

  /** Inserts the rows not already there (same recipient and event); returns the ids of those inserted. */
  async insertNew(rows: NotificationRow[]): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < rows.length; i += 500) {
      const inserted = await this.db
        .insertInto('notifications')
        .values(rows.slice(i, i + 500))
        .onConflict((oc) => oc.columns(['user_id', 'event_key']).doNothing())
        .returning('id')
        .execute();
      ids.push(...inserted.map((r) => r.id));
    }
    return ids;
  }

  private visible(userId: string) {
    return this.db
      .selectFrom('notifications')
      .leftJoin('videos', 'videos.id', 'notifications.video_id')
      .leftJoin('comments', 'comments.id', 'notifications.comment_id')
      .leftJoin('users as actor', 'actor.id', 'notifications.actor_id')
      .where('notifications.user_id', '=', userId)
      .where(STILL_VISIBLE);
  }

  private withView(userId: string) {
    return this.visible(userId).select([
      'notifications.id',
      'notifications.kind',
      'notifications.read_at',
      'notifications.created_at',
      'notifications.reason',
      'notifications.actor_id',
      'actor.username as actor_username',
      'actor.full_name as actor_full_name',
      'actor.avatar_key as actor_avatar_key',
      'notifications.video_id',
      'videos.title as video_title',
      'videos.thumbnail_key as video_thumbnail_key',
      'notifications.comment_id',
      'comments.content as comment_content',
      'comments.parent_id as comment_parent_id',
    ]);
  }

  /**
   * One page, newest first, read from the (user_id, created_at, id) index with one row more than the
   * page. The page fields never contradict the pages: a short page is the last and its total is
   * exact; a full page with more after it counts the visible ones up to the limit (see
   * NotificationLimits), and claims at least one more; a page past the end answers no rows.
   */
  async page(userId: string, offset: number, limit: number): Promise<{ rows: NotificationViewRow[]; total: number }> {
    const rows = await this.withView(userId)
      .orderBy('notifications.created_at', 'desc')
      .orderBy('notifications.id', 'desc')
      .offset(offset)
      .limit(limit + 1)
      .execute();
    const more = rows.length > limit;
    if (more) rows.pop();
    if (!more && (rows.length > 0 || offset === 0)) return { rows, total: offset + rows.length };
    const cap = this.limits.exactUpTo;
    const counted = await this.countVisible(userId, cap + 1);
    // Past the end: the count, or where the end must lie when there were too many to count.
    if (!more) return { rows, total: counted <= cap ? counted : offset };
    if (counted <= cap) return { rows, total: counted };
    const all = await this.db
      .selectFrom('notifications')
      .where('user_id', '=', userId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { rows, total: Math.max(Number(all.n), offset + limit + 1) };
  }

  /** The user's visible notifications, counted up to `upTo`. */
  private async countVisible(userId: string, upTo: number): Promise<number> {
    const row = await this.db
      .selectFrom(this.visible(userId).select('notifications.id').limit(upTo).as('shown'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  findViews(userId: string, ids: string[]): Promise<NotificationViewRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.withView(userId).where('notifications.id', 'in', ids).execute();
  }

  async unreadCount(userId: string): Promise<number> {
    const row = await this.visible(userId)
      .where('notifications.read_at', 'is', null)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Marks the user's unread notifications read (only these ids, if given); returns how many changed. */
  async markRead(userId: string, ids: string[] | undefined, now: number): Promise<number> {
    let q = this.db.updateTable('notifications').set({ read_at: now }).where('user_id', '=', userId).where('read_at', 'is', null);
    if (ids) q = q.where('id', 'in', ids);
    const res = await q.executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  findVideo(videoId: string): Promise<VideoFacts | undefined> {
    return this.db
      .selectFrom('videos')
      .select(['videos.id', 'videos.listed', 'videos.failure_reason', ...ACCESS_COLUMNS])
      .where('videos.id', '=', videoId)
      .executeTakeFirst();
  }

  /** When the live's current session started, or null (no live, or not on air yet). */
  async liveStartedAt(videoId: string): Promise<number | null> {
    const row = await this.db.selectFrom('lives').select('started_at').where('video_id', '=', videoId).executeTakeFirst();
    return row?.started_at == null ? null : Number(row.started_at);
  }

  /** The subscribers of a channel who may sign in (banned accounts are told nothing). */
  async followers(channelId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('subscriptions')
      .innerJoin('users', 'users.id', 'subscriptions.subscriber_id')
      .select('users.id')
      .where('subscriptions.channel_id', '=', channelId)
      .where('users.banned_at', 'is', null)
      .execute();
    return rows.map((r) => r.id);
  }

  findUser(userId: string): Promise<{ id: string; role: Role; banned_at: number | null } | undefined> {
    return this.db.selectFrom('users').select(['id', 'role', 'banned_at']).where('id', '=', userId).executeTakeFirst();
  }
}
