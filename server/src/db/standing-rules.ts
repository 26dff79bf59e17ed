import { type RawBuilder, sql, type SqlBool } from 'kysely';

/**
 * What a banned account's comments and channel look like to everyone else: gone. The rule for its
 * videos lives with the other video rules (video-access.ts, in the kept listed/watchable flags);
 * comments carry a kept flag of their own, `owner_banned`, set and cleared by account-bans.repository.ts.
 */

/** For queries on `comments`: the author is not banned. */
export function commentAuthorInGoodStanding(): RawBuilder<SqlBool> {
  return sql<SqlBool>`comments.owner_banned = 0`;
}

/** The number of comments a video shows (those of authors in good standing), for `videos.comments_count`. */
export function shownCommentsCount(): RawBuilder<number> {
  return sql<number>`(select count(*) from comments c where c.video_id = videos.id and c.owner_banned = 0)`;
}

/** The replies a top-level comment shows (those of authors in good standing). */
export function shownRepliesCount(): RawBuilder<number> {
  return sql<number>`(select count(*) from comments r where r.parent_id = comments.id and r.owner_banned = 0)`;
}
