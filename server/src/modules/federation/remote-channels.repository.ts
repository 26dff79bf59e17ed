import { refreshVideoAccess } from '../../db/video-access.js';
import type { Db } from '../../db/client.js';
import { newId } from '../../lib/ids.js';
import { viewerKey } from '../../lib/viewer-key.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { VideosRepository } from '../videos/videos.repository.js';
import type { RemoteChannel, RemoteVideo } from './remote-objects.js';

/** A remote channel's row: the account that stands for it here. */
export interface RemoteChannelRow {
  id: string;
  username: string;
  full_name: string;
  remote_actor_id: string;
  remote_inbox: string;
}

const CHANNEL_COLUMNS = ['id', 'username', 'full_name', 'remote_actor_id', 'remote_inbox', 'banned_at'] as const;

/** A selected account as a remote channel's row, or undefined for an account of this site. */
function asRemote<T extends { remote_actor_id: string | null; remote_inbox: string | null }>(row: T | undefined) {
  return row && row.remote_actor_id && row.remote_inbox ? { ...row, remote_actor_id: row.remote_actor_id, remote_inbox: row.remote_inbox } : undefined;
}

/** The rows of other servers' channels and videos: accounts and videos like the site's own, with their origin noted. */
export class RemoteChannelsRepository {
  constructor(
    private readonly db: Db,
    /** Deletes a video with what points at it and recounts what counted it, as the site's own are deleted. */
    private readonly videos: Pick<VideosRepository, 'deleteWithCascade'>,
    /** Deletes an account with everything it owns and recounts what counted it, as the site's own are deleted. */
    private readonly accounts: Pick<UsersRepository, 'deleteWithCascade'>,
  ) {}

  /** A remote account its server deleted: gone here with its videos, comments, likes and subscribers. */
  async deleteAccount(userId: string): Promise<void> {
    await this.accounts.deleteWithCascade(userId, viewerKey({ userId, ip: '', userAgent: '' }));
  }

  /** Keeps a remote channel (its name, images and inboxes as it says now), answering its row; a handle taken by another actor is freed for this one. */
  async upsertChannel(channel: RemoteChannel, now: number): Promise<RemoteChannelRow> {
    return this.db.transaction().execute(async (trx) => {
      const known = await trx.selectFrom('users').select(['id', 'username']).where('remote_actor_id', '=', channel.actorId).executeTakeFirst();
      const fields = {
        username: channel.username,
        full_name: channel.fullName,
        avatar_key: channel.avatar,
        cover_key: channel.cover,
        remote_url: channel.url,
        remote_inbox: channel.inbox,
        remote_shared_inbox: channel.sharedInbox,
        updated_at: now,
      };
      if (known?.username !== channel.username) {
        // Another actor that once had this handle on that server (an account deleted and made again).
        await trx
          .updateTable('users')
          .set({ username: `${channel.username}#${newId()}` })
          .where('username', '=', channel.username)
          .where('remote_actor_id', '!=', channel.actorId)
          .execute();
      }
      let id = known?.id;
      if (id) {
        await trx.updateTable('users').set(fields).where('id', '=', id).execute();
        await trx
          .updateTable('videos')
          .set({ owner_text: `${channel.username} ${channel.fullName}` })
          .where('owner_id', '=', id)
          .execute();
      } else {
        id = newId();
        await trx
          .insertInto('users')
          .values({
            id,
            ...fields,
            // Never an address anyone can sign in with or be mailed at: .invalid is reserved for that.
            email: `${id}@remote.invalid`,
            password_hash: '',
            is_demo: 0,
            role: 'user',
            banned_at: null,
            ban_reason: null,
            approval_pending: 0,
            quota_bytes: null,
            daily_quota_bytes: null,
            subscribers_count: 0,
            videos_count: 0,
            email_verified_at: null,
            live_allowed: 0,
            language: null,
            remote_actor_id: channel.actorId,
            created_at: now,
          })
          .execute();
      }
      return { id, username: channel.username, full_name: channel.fullName, remote_actor_id: channel.actorId, remote_inbox: channel.inbox };
    });
  }

  async channelByActor(actorId: string): Promise<(RemoteChannelRow & { banned_at: number | null }) | undefined> {
    return asRemote(await this.db.selectFrom('users').select(CHANNEL_COLUMNS).where('remote_actor_id', '=', actorId).executeTakeFirst());
  }

  async channelById(id: string): Promise<RemoteChannelRow | undefined> {
    return asRemote(await this.db.selectFrom('users').select(CHANNEL_COLUMNS).where('id', '=', id).executeTakeFirst());
  }

  /**
   * Keeps a remote video of a remote channel as it says now; answers its local id and whether it is
   * new here. A video this site knows under another channel is left alone (false, no id).
   */
  async upsertVideo(ownerId: string, video: RemoteVideo, ownerText: string, now: number): Promise<{ id: string; created: boolean } | null> {
    return this.db.transaction().execute(async (trx) => {
      const known = await trx.selectFrom('videos').select(['id', 'owner_id']).where('remote_object_id', '=', video.objectId).executeTakeFirst();
      if (known && known.owner_id !== ownerId) return null;
      const fields = {
        title: video.title,
        description: video.description,
        owner_text: ownerText,
        duration: video.durationSeconds,
        width: video.width,
        height: video.height,
        video_key: video.mp4,
        hls_key: video.hls,
        thumbnail_key: video.thumbnail ?? '',
        remote_url: video.url,
        updated_at: video.updated,
      };
      const id = known?.id ?? newId();
      if (known) {
        await trx.updateTable('videos').set(fields).where('id', '=', id).execute();
      } else {
        await trx
          .insertInto('videos')
          .values({
            id,
            owner_id: ownerId,
            ...fields,
            views: 0,
            status: 'ready',
            progress: 100,
            failure_reason: null,
            visibility: 'public',
            publish_at: null,
            hidden_at: null,
            hidden_reason: null,
            appeal_text: null,
            appealed_at: null,
            listed: 0,
            watchable: 0,
            source_key: null,
            storyboard_key: null,
            source_bytes: 0,
            likes_count: 0,
            comments_count: 0,
            remote_object_id: video.objectId,
            // Where it sits among the newest: when its origin published it, never later than now.
            created_at: Math.min(video.published, now),
          })
          .execute();
      }
      await refreshVideoAccess(trx, { ownerId, videoId: id });
      return { id, created: !known };
    });
  }

  /** A remote video its channel deleted (or made private): gone here with its comments and likes. Answers the local id it had. */
  async deleteVideo(ownerId: string, objectId: string): Promise<string | null> {
    const row = await this.db.selectFrom('videos').select('id').where('remote_object_id', '=', objectId).where('owner_id', '=', ownerId).executeTakeFirst();
    if (!row) return null;
    await this.videos.deleteWithCascade(row.id, ownerId);
    return row.id;
  }

  /** Whether any channel of this site follows the remote actor (its Follow sent, accepted or not yet). */
  async followed(actorId: string): Promise<boolean> {
    const row = await this.db.selectFrom('federation_following').select('actor_id').where('actor_id', '=', actorId).executeTakeFirst();
    return row !== undefined;
  }
}
