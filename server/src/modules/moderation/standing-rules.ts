import { type RawBuilder, sql, type SqlBool } from 'kysely';

/**
 * What a banned account's comments and channel look like to everyone else: gone. The rule for its
 * videos lives with the other video rules (video-access.ts, in the kept listed/watchable flags);
 * comments are filtered here instead, since they have no kept flag of their own.
 */

/** For queries on `comments`: the author is not banned. */
export function commentAuthorInGoodStanding(): RawBuilder<SqlBool> {
  return sql<SqlBool>`(select u.banned_at from users u where u.id = comments.owner_id) is null`;
}

/** The number of comments a video shows (those of authors in good standing), for `videos.comments_count`. */
export function shownCommentsCount(): RawBuilder<number> {
  return sql<number>`(select count(*) from comments c where c.video_id = videos.id and (select u.banned_at from users u where u.id = c.owner_id) is null)`;
}

/** The replies a top-level comment shows (those of authors in good standing). */
export function shownRepliesCount(): RawBuilder<number> {
  return sql<number>`(select count(*) from comments r where r.parent_id = comments.id and (select u.banned_at from users u where u.id = r.owner_id) is null)`;
}
