import { sql } from 'kysely';
import type { Db } from '../../db/client.js';
import type { Database } from '../../db/schema.js';
import { addPublicVideos } from '../../db/video-access.js';
import { CommentsRepository } from '../comments/comments.repository.js';
import { LikesRepository } from '../likes/likes.repository.js';
import { PlaylistsRepository } from '../playlists/playlists.repository.js';
import { VideoWritesRepository } from '../videos/video-writes.repository.js';
import { ViewEventsRepository } from '../videos/view-events.repository.js';

export type UserRow = Database['users'];

export class UsersRepository {
  constructor(private readonly db: Db) {}

  findById(id: string) {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string) {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  findByUsername(username: string) {
    return this.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  }

  async insert(row: UserRow): Promise<void> {
    await this.db.insertInto('users').values(row).execute();
  }

  /** Inserts the user unless its username or email is taken (by a row another process just made, say); true when it did. */
  async insertIfFree(row: UserRow): Promise<boolean> {
    const res = await this.db
      .insertInto('users')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Updates a user; a changed name is copied to their videos' search text in the same transaction. */
  async update(id: string, patch: Partial<Omit<UserRow, 'id'>>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set(patch).where('id', '=', id).execute();
      if (patch.username !== undefined || patch.full_name !== undefined) {
        const user = await trx.selectFrom('users').select(['username', 'full_name']).where('id', '=', id).executeTakeFirstOrThrow();
        await new VideoWritesRepository(trx).setOwnerText(id, `${user.username} ${user.full_name}`);
      }
    });
  }

  /** Makes the accounts with these emails admins; returns how many changed. */
  async promoteToAdmin(emails: readonly string[], now: number): Promise<number> {
    const res = await this.db
      .updateTable('users')
      .set({ role: 'admin', updated_at: now })
      .where('email', 'in', [...emails])
      .where('role', '!=', 'admin')
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /** An admin's change to an account's role, approval or quotas. */
  async changeAccount(
    id: string,
    change: Partial<Pick<UserRow, 'role' | 'approval_pending' | 'quota_bytes' | 'daily_quota_bytes' | 'live_allowed'>>,
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ ...change, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Bans (with its reason) or unbans an account; false when it was already in that state. */
  async setBanned(id: string, ban: { reason: string } | null, now: number): Promise<boolean> {
    let q = this.db
      .updateTable('users')
      .set(ban ? { banned_at: now, ban_reason: ban.reason, updated_at: now } : { banned_at: null, ban_reason: null, updated_at: now })
      .where('id', '=', id);
    q = ban ? q.where('banned_at', 'is', null) : q.where('banned_at', 'is not', null);
    const changed = await q.executeTakeFirst();
    return Number(changed.numUpdatedRows) > 0;
  }

  /** Moves a channel's kept subscriber count by what a subscription change did. */
  async addSubscribers(channelId: string, delta: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ subscribers_count: sql<number>`subscribers_count + ${delta}` })
      .where('id', '=', channelId)
      .execute();
  }

  isSubscribed(subscriberId: string, channelId: string) {
    return this.db
      .selectFrom('subscriptions')
      .select('channel_id')
      .where('subscriber_id', '=', subscriberId)
      .where('channel_id', '=', channelId)
      .executeTakeFirst()
      .then(Boolean);
  }

  /** Media keys of everything the user owns, so the caller can remove the files. */
  async ownedVideoIds(userId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('videos').select('id').where('owner_id', '=', userId).execute();
    return rows.map((r) => r.id);
  }

  /**
   * Deletes the user and, through foreign keys, everything they own. Counters on other people's
   * rows that the user's likes, comments, subscriptions and videos fed are recounted in the same
   * transaction, so no page ever shows a count of things that no longer exist.
   */
  async deleteWithCascade(userId: string, viewerKey: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const ids = async <T extends { id: string }>(q: Promise<T[]>) => [...new Set((await q).map((r) => r.id))];
      const channels = await ids(trx.selectFrom('subscriptions').select('channel_id as id').where('subscriber_id', '=', userId).execute());
      const ownVideos = trx.selectFrom('videos').select('id').where('owner_id', '=', userId);
      const likedVideos = await ids(
        trx.selectFrom('likes').select('target_id as id').where('user_id', '=', userId).where('target_type', '=', 'video').execute(),
      );
      const likedComments = await ids(
        trx.selectFrom('likes').select('target_id as id').where('user_id', '=', userId).where('target_type', '=', 'comment').execute(),
      );
      const commentedVideos = await ids(trx.selectFrom('comments').select('video_id as id').where('owner_id', '=', userId).execute());
      const playlists = await ids(trx.selectFrom('playlist_videos').select('playlist_id as id').where('video_id', 'in', ownVideos).execute());

      await new LikesRepository(trx).deleteOnWhatUserOwns(userId);
      // View de-duplication records are keyed by the viewer; they are the user's data too.
      await new ViewEventsRepository(trx).deleteForViewer(viewerKey);
      const gone = await trx.deleteFrom('users').where('id', '=', userId).returning('videos_count').executeTakeFirst();
      if (gone?.videos_count) await addPublicVideos(trx, -Number(gone.videos_count));

      if (channels.length) {
        await trx
          .updateTable('users')
          .set({ subscribers_count: sql<number>`(select count(*) from subscriptions s where s.channel_id = users.id)` })
          .where('id', 'in', channels)
          .execute();
      }
      if (likedVideos.length || commentedVideos.length) {
        await new VideoWritesRepository(trx).recountLikesAndComments([...new Set([...likedVideos, ...commentedVideos])]);
      }
      if (likedComments.length) {
        await new CommentsRepository(trx).recountLikes(likedComments);
      }
      if (playlists.length) {
        await new PlaylistsRepository(trx).recountVideos(playlists);
      }
    });
  }
}
