import type { Db } from '../../db/client.js';

/** A comment of this site's member under a remote video: what its Note says and where it goes. */
export interface OutgoingCommentRow {
  id: string;
  owner_id: string;
  content: string;
  created_at: number;
  updated_at: number;
  /** The remote video's object, its channel's actor and inbox. */
  video_object_id: string;
  video_owner_actor: string;
  video_owner_inbox: string;
  /** The comment of its thread it answers: a remote one's Note id, or the id of one of this site's. */
  parent_id: string | null;
  parent_object_id: string | null;
}

/** A video of another server as a like of it is sent there. */
export interface RemoteVideoTarget {
  object_id: string;
  owner_actor: string;
  owner_inbox: string;
}

/** A comment of this site as another server reads it. */
export interface PublicCommentRow {
  id: string;
  video_id: string;
  owner_id: string;
  parent_id: string | null;
  content: string;
  created_at: number;
  updated_at: number;
  /** Set when the video, or the comment it answers, came from another server: what the Note answers there. */
  video_object_id: string | null;
  parent_object_id: string | null;
}

/** The rows comments and likes across servers read: which comments and videos are remote, and where they go. */
export class RemoteInteractionsRepository {
  constructor(private readonly db: Db) {}

  /** A comment of one of this site's members under a remote video; undefined for any other comment. */
  async outgoingComment(commentId: string): Promise<OutgoingCommentRow | undefined> {
    const row = await this.db
      .selectFrom('comments')
      .innerJoin('users as author', 'author.id', 'comments.owner_id')
      .innerJoin('videos', 'videos.id', 'comments.video_id')
      .innerJoin('users as channel', 'channel.id', 'videos.owner_id')
      .leftJoin('comments as parent', 'parent.id', 'comments.parent_id')
      .select([
        'comments.id',
        'comments.owner_id',
        'comments.content',
        'comments.created_at',
        'comments.updated_at',
        'videos.remote_object_id as video_object_id',
        'channel.remote_actor_id as video_owner_actor',
        'channel.remote_inbox as video_owner_inbox',
        'comments.parent_id',
        'parent.remote_object_id as parent_object_id',
      ])
      .where('comments.id', '=', commentId)
      .where('author.remote_actor_id', 'is', null)
      .where('videos.remote_object_id', 'is not', null)
      .executeTakeFirst();
    if (!row?.video_object_id || !row.video_owner_actor || !row.video_owner_inbox) return undefined;
    return { ...row, video_object_id: row.video_object_id, video_owner_actor: row.video_owner_actor, video_owner_inbox: row.video_owner_inbox };
  }

  /** A remote video and where its channel hears of likes; undefined for a video of this site. */
  async remoteVideo(videoId: string): Promise<RemoteVideoTarget | undefined> {
    const row = await this.db
      .selectFrom('videos')
      .innerJoin('users as channel', 'channel.id', 'videos.owner_id')
      .select(['videos.remote_object_id', 'channel.remote_actor_id', 'channel.remote_inbox'])
      .where('videos.id', '=', videoId)
      .executeTakeFirst();
    if (!row?.remote_object_id || !row.remote_actor_id || !row.remote_inbox) return undefined;
    return { object_id: row.remote_object_id, owner_actor: row.remote_actor_id, owner_inbox: row.remote_inbox };
  }

  /** Whether an account is one of this site's own (it sends what it writes to other servers). */
  async isLocalAccount(userId: string): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('remote_actor_id').where('id', '=', userId).executeTakeFirst();
    return row !== undefined && row.remote_actor_id === null;
  }

  /** A comment another server sent, by its Note's id, with its author's actor. */
  commentByObject(objectId: string) {
    return this.db
      .selectFrom('comments')
      .innerJoin('users as author', 'author.id', 'comments.owner_id')
      .select(['comments.id', 'comments.video_id', 'comments.owner_id', 'comments.parent_id', 'author.remote_actor_id'])
      .where('comments.remote_object_id', '=', objectId)
      .executeTakeFirst();
  }

  /** A comment of this site (any author), with whether its video is one of this site's. */
  comment(commentId: string) {
    return this.db
      .selectFrom('comments')
      .innerJoin('videos', 'videos.id', 'comments.video_id')
      .select(['comments.id', 'comments.video_id', 'comments.parent_id', 'videos.remote_object_id as video_object_id'])
      .where('comments.id', '=', commentId)
      .executeTakeFirst();
  }

  /** Counts an account elsewhere sharing a video once, however often it says so; false when it had already. */
  async addShare(videoId: string, actorId: string, now: number): Promise<boolean> {
    const r = await this.db
      .insertInto('federation_shares')
      .values({ video_id: videoId, actor_id: actorId, created_at: now })
      .onConflict((oc) => oc.columns(['video_id', 'actor_id']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async removeShare(videoId: string, actorId: string): Promise<boolean> {
    const r = await this.db.deleteFrom('federation_shares').where('video_id', '=', videoId).where('actor_id', '=', actorId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Whether a video of this site may be seen by anyone (what others may share). */
  async isPublicLocalVideo(videoId: string): Promise<boolean> {
    const row = await this.db.selectFrom('videos').select(['remote_object_id', 'watchable']).where('id', '=', videoId).executeTakeFirst();
    return row !== undefined && row.remote_object_id === null && Number(row.watchable) === 1;
  }

  /** Whether a video is one of this site's own (the origin of what is said about it). */
  async isLocalVideo(videoId: string): Promise<boolean> {
    const row = await this.db.selectFrom('videos').select('remote_object_id').where('id', '=', videoId).executeTakeFirst();
    return row !== undefined && row.remote_object_id === null;
  }

  /** A comment by one of this site's members, under a video anyone may watch, by an author in good standing: what its Note answers. */
  publicComment(commentId: string): Promise<PublicCommentRow | undefined> {
    return this.db
      .selectFrom('comments')
      .innerJoin('videos', 'videos.id', 'comments.video_id')
      .innerJoin('users as author', 'author.id', 'comments.owner_id')
      .leftJoin('comments as parent', 'parent.id', 'comments.parent_id')
      .select([
        'comments.id',
        'comments.video_id',
        'comments.owner_id',
        'comments.parent_id',
        'comments.content',
        'comments.created_at',
        'comments.updated_at',
        'videos.remote_object_id as video_object_id',
        'parent.remote_object_id as parent_object_id',
      ])
      .where('comments.id', '=', commentId)
      .where('comments.owner_banned', '=', 0)
      .where('videos.watchable', '=', 1)
      .where('author.remote_actor_id', 'is', null)
      .executeTakeFirst();
  }
}
