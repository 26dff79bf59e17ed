import { type Kysely, type RawBuilder, sql, type SqlBool } from 'kysely';
import type { Database, Role, Visibility } from './schema.js';

/**
 * Who may see a video, decided here and nowhere else. Every list, search, feed, count, channel page
 * and player page asks this module, so visibility, moderation, bans and scheduling never disagree.
 *
 * The rule is kept in two flags on the video row, refreshed whenever one of its inputs changes
 * (processing state, visibility, a takedown, the owner's ban):
 * - `watchable`: ready, not private, not taken down, owner not banned. Anyone with the link may
 *   play it (public and unlisted videos).
 * - `listed`: watchable and public. Shown in lists, search, channel pages and feeds to everyone.
 * Lists filter on `listed = 1` alone, an indexed column, instead of re-deriving the rule per query.
 */

/** The caller, as far as access is concerned. The signed-in user of a request fits. */
export interface Viewer {
  id: string;
  role: Role;
}

/** The columns of a video that access depends on. */
export interface AccessFields {
  owner_id: string;
  status: string;
  visibility: Visibility;
  hidden_at: number | null;
  watchable: number;
}

/** Selected wherever a module needs to decide access on a row of its own query. */
export const ACCESS_COLUMNS = ['videos.owner_id', 'videos.status', 'videos.visibility', 'videos.hidden_at', 'videos.watchable'] as const;

export const isAdmin = (viewer: Viewer | null) => viewer?.role === 'admin';

/**
 * May this viewer open the video (its page, comments, likes, adding it to a playlist, counting a
 * view)? The owner always may (and sees why it is hidden, if it is); admins may see everything;
 * moderators may review what was taken down or belongs to a banned account, but private stays
 * private to them; everyone else needs a watchable video.
 */
export function canWatch(video: AccessFields, viewer: Viewer | null): boolean {
  if (video.watchable === 1) return true;
  if (!viewer) return false;
  if (video.owner_id === viewer.id || viewer.role === 'admin') return true;
  return viewer.role === 'moderator' && video.status === 'ready' && video.visibility !== 'private';
}

/** For lists everyone sees (feeds, search, channel pages): the listed flag, one indexed column. */
export function listedVideo(): RawBuilder<SqlBool> {
  return sql<SqlBool>`videos.listed = 1`;
}

/**
 * For a viewer's own collections that hold other people's videos (playlists, liked videos, watch
 * history): what they could still open by its link, and their own videos in any state.
 */
export function watchableBy(viewer: Viewer | null): RawBuilder<SqlBool> {
  if (!viewer) return sql<SqlBool>`videos.watchable = 1`;
  if (viewer.role === 'admin') return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`(videos.watchable = 1 or videos.owner_id = ${viewer.id})`;
}

const OWNER_IN_GOOD_STANDING = sql<SqlBool>`(select u.banned_at from users u where u.id = videos.owner_id) is null`;
const WATCHABLE_RULE = sql<SqlBool>`(videos.status = 'ready' and videos.visibility <> 'private' and videos.hidden_at is null and ${OWNER_IN_GOOD_STANDING})`;
const LISTED_RULE = sql<SqlBool>`(${WATCHABLE_RULE} and videos.visibility = 'public')`;

/**
 * Recomputes the kept flags of one owner's videos (or of one of them), then the owner's listed
 * count (users.videos_count: what their channel shows to others) and the site-wide
 * 'public_videos' counter, which is the sum of those counts. Call it, in the same transaction,
 * after anything that can change a flag: a video created, deleted, made ready or failed, its
 * visibility changed, taken down or restored, or its owner banned or unbanned. It writes only rows
 * whose flags actually change.
 */
export async function refreshVideoAccess(db: Kysely<Database>, target: { ownerId: string; videoId?: string }): Promise<void> {
  const run = async (trx: Kysely<Database>) => {
    // Locks the owner's row first (a write, so it works on both databases): two refreshes for one
    // owner then apply their differences one after the other instead of both from the same start.
    const locked = await trx
      .updateTable('users')
      .set((eb) => ({ videos_count: eb.ref('videos_count') }))
      .where('id', '=', target.ownerId)
      .executeTakeFirst();
    if (Number(locked.numUpdatedRows) === 0) return;
    const listed = sql<number>`case when ${LISTED_RULE} then 1 else 0 end`;
    const watchable = sql<number>`case when ${WATCHABLE_RULE} then 1 else 0 end`;
    let flags = trx
      .updateTable('videos')
      .set({ listed, watchable })
      .where('owner_id', '=', target.ownerId)
      .where(sql<SqlBool>`(listed <> ${listed} or watchable <> ${watchable})`);
    if (target.videoId) flags = flags.where('id', '=', target.videoId);
    await flags.execute();
    const before = await trx.selectFrom('users').select('videos_count').where('id', '=', target.ownerId).executeTakeFirstOrThrow();
    const after = await trx
      .updateTable('users')
      .set({ videos_count: sql<number>`(select count(*) from videos v where v.owner_id = users.id and v.listed = 1)` })
      .where('id', '=', target.ownerId)
      .returning('videos_count')
      .executeTakeFirstOrThrow();
    const delta = Number(after.videos_count) - Number(before.videos_count);
    if (delta !== 0) await addPublicVideos(trx, delta);
  };
  await (db.isTransaction ? run(db) : db.transaction().execute(run));
}

export async function addPublicVideos(db: Kysely<Database>, delta: number): Promise<void> {
  await db
    .updateTable('counters')
    .set({ value: sql<number>`value + ${delta}` })
    .where('key', '=', 'public_videos')
    .execute();
}
