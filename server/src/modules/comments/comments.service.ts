import { type Comment, type CommentPage, pageInfo } from '@reelhouse/contract';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { newId, toIso } from '../../lib/ids.js';
import type { Storage } from '../../storage/storage.js';
import { canWatch, type Viewer } from '../../db/video-access.js';
import { type DefaultImages, defaultImages } from '../../lib/default-images.js';
import type { CommentAccessRow, CommentsRepository, CommentWithOwnerRow } from './comments.repository.js';
import type { PublicChanges } from '../../lib/public-changes.js';

export interface CommentEvents {
  commented(event: { commentId: string; videoId: string; authorId: string; repliedToAuthorId: string | null }): Promise<void>;
}

/** Told of what the site's own members write under videos of other servers, which those servers must hear of. */
export interface CommentFederation {
  added(commentId: string): Promise<void>;
  edited(commentId: string): Promise<void>;
  removed(comment: { id: string; videoId: string; authorId: string }): Promise<void>;
}

/** Where a comment another server sent came from: its Note's id and page. */
export interface CommentOrigin {
  objectId: string;
  url: string;
}

/**
 * Comments under videos. Comments share their video's visibility: under a video the caller may not
 * see there are no comments to read, add, edit or delete.
 */
export class CommentsService {
  constructor(
    private readonly deps: {
      comments: CommentsRepository;
      storage: Storage;
      defaultImages?: DefaultImages;
      now?: () => number;
      /** Told of each new comment after it is stored, to notify whom it concerns. */
      events?: CommentEvents;
      /** Told after every write: comments and their counts are on public pages. */
      changes: PublicChanges;
      /** Told after a write under a remote video (federation on). */
      federated?: CommentFederation;
      logger?: { warn(obj: object, msg?: string): void };
    },
  ) {}

  private now() {
    return (this.deps.now ?? Date.now)();
  }

  private present(row: CommentWithOwnerRow, isLiked: boolean): Comment {
    return {
      _id: row.id,
      content: row.content,
      createdAt: toIso(Number(row.created_at)),
      updatedAt: toIso(Number(row.updated_at)),
      video: row.video_id,
      owner: {
        _id: row.owner_id,
        username: row.owner_username,
        fullName: row.owner_full_name,
        avatar: { url: row.owner_avatar_key ? this.deps.storage.url(row.owner_avatar_key) : (this.deps.defaultImages ?? defaultImages()).avatar },
      },
      likesCount: Number(row.likes_count),
      isLiked,
      parentId: row.parent_id,
      replyCount: Number(row.reply_count),
      isPinned: row.pinned_at !== null,
      isHearted: row.hearted_at !== null,
      ...(row.remote_url ? { remote: true, url: row.remote_url } : {}),
    };
  }

  /** Tells federation after the write has committed; a failure there (logged) never undoes the comment. */
  private async tellFederation(call: (f: CommentFederation) => Promise<void>): Promise<void> {
    const federated = this.deps.federated;
    if (!federated) return;
    try {
      await call(federated);
    } catch (err) {
      this.deps.logger?.warn({ err }, 'a comment could not be sent to the server of its video');
    }
  }

  private async assertVideoVisible(videoId: string, viewer: Viewer | null) {
    const video = await this.deps.comments.findVideoAccess(videoId);
    if (!video || !canWatch(video, viewer)) throw notFound('Video');
  }

  private async visibleComment(commentId: string, viewer: Viewer): Promise<CommentAccessRow> {
    const row = await this.deps.comments.findAccess(commentId);
    if (!row || !canWatch(row.video, viewer)) throw notFound('Comment');
    return row;
  }

  /** A comment whose thread the viewer may read: its video is visible to them and its author not banned. */
  private async readableComment(commentId: string, viewer: Viewer | null): Promise<CommentAccessRow> {
    const row = await this.deps.comments.findAccess(commentId);
    if (!row || row.owner_banned || !canWatch(row.video, viewer)) throw notFound('Comment');
    return row;
  }

  private async page(rows: CommentWithOwnerRow[], viewer: Viewer | null) {
    const liked = viewer
      ? await this.deps.comments.likedBy(
          viewer.id,
          rows.map((r) => r.id),
        )
      : new Set<string>();
    return rows.map((r) => this.present(r, liked.has(r.id)));
  }

  /**
   * A page of comments as signed-out visitors see it, for this viewer: which of them they like, in
   * one query. Whoever is signed in may read what signed-out visitors may, and sees the same comments.
   */
  async pageForViewer(page: CommentPage, viewer: Viewer): Promise<CommentPage> {
    const liked = await this.deps.comments.likedBy(
      viewer.id,
      page.comments.map((c) => c._id),
    );
    return { ...page, comments: page.comments.map((c) => ({ ...c, isLiked: liked.has(c._id) })) };
  }

  /** A comment's replies, oldest first; a reply has none (replies are one level deep). */
  async replies(commentId: string, viewer: Viewer | null, page: { pageNumber: number; pageSize: number }): Promise<CommentPage> {
    await this.readableComment(commentId, viewer);
    const { rows, total } = await this.deps.comments.replies(commentId, (page.pageNumber - 1) * page.pageSize, page.pageSize);
    return { comments: await this.page(rows, viewer), ...pageInfo(total, page.pageNumber, page.pageSize) };
  }

  /** The video's owner pins a top-level comment (unpinning any other), or unpins it. */
  async togglePin(commentId: string, user: Viewer): Promise<Comment> {
    const row = await this.ownersComment(commentId, user, 'pin');
    if (row.parent_id !== null) throw badRequest('Only a top-level comment can be pinned');
    const current = await this.deps.comments.findWithOwner(commentId);
    const pinned = await this.deps.comments.setPinned(commentId, row.video_id, current?.pinned_at == null ? this.now() : null);
    if (!pinned) throw conflict('Another comment was pinned at the same time; try again');
    await this.deps.changes.changed();
    return this.get(commentId, user.id);
  }

  /** The video's owner gives a comment a heart, or takes it back. */
  async toggleHeart(commentId: string, user: Viewer): Promise<Comment> {
    await this.ownersComment(commentId, user, 'heart');
    const current = await this.deps.comments.findWithOwner(commentId);
    await this.deps.comments.setHearted(commentId, current?.hearted_at == null ? this.now() : null);
    await this.deps.changes.changed();
    return this.get(commentId, user.id);
  }

  private async ownersComment(commentId: string, user: Viewer, action: string): Promise<CommentAccessRow> {
    const row = await this.readableComment(commentId, user);
    if (row.video.owner_id !== user.id) throw forbidden(`Only the video's owner can ${action} comments`);
    return row;
  }

  async list(videoId: string, viewer: Viewer | null, page: { pageNumber: number; pageSize: number }): Promise<CommentPage> {
    await this.assertVideoVisible(videoId, viewer);
    const { rows, total } = await this.deps.comments.page(videoId, (page.pageNumber - 1) * page.pageSize, page.pageSize);
    return { comments: await this.page(rows, viewer), ...pageInfo(total, page.pageNumber, page.pageSize) };
  }

  /**
   * Adds a comment, or a reply when parentId names a comment under the same video. Replies are one
   * level deep: a reply to a reply joins the thread of its top-level comment.
   */
  async add(videoId: string, user: Viewer, content: string, parentId?: string, origin?: CommentOrigin): Promise<Comment> {
    await this.assertVideoVisible(videoId, user);
    let threadId: string | null = null;
    let repliedTo: CommentAccessRow | null = null;
    if (parentId !== undefined) {
      repliedTo = await this.readableComment(parentId, user);
      if (repliedTo.video_id !== videoId)
        throw badRequest('parentId must be a comment under this video', [{ path: 'parentId', message: 'parentId must be a comment under this video' }]);
      threadId = repliedTo.parent_id ?? repliedTo.id;
    }
    const userId = user.id;
    const now = this.now();
    const id = newId();
    const added = await this.deps.comments.insert({
      id,
      video_id: videoId,
      owner_id: userId,
      content,
      parent_id: threadId,
      pinned_at: null,
      hearted_at: null,
      likes_count: 0,
      remote_object_id: origin?.objectId ?? null,
      remote_url: origin?.url ?? null,
      created_at: now,
      updated_at: now,
    });
    if (!added) throw notFound(repliedTo ? 'Comment' : 'Video');
    await this.deps.changes.changed();
    await this.deps.events?.commented({ commentId: id, videoId, authorId: userId, repliedToAuthorId: repliedTo?.owner_id ?? null });
    if (!origin) await this.tellFederation((f) => f.added(id));
    return this.get(id, userId);
  }

  async edit(commentId: string, user: Viewer, content: string): Promise<Comment> {
    const row = await this.visibleComment(commentId, user);
    const userId = user.id;
    if (row.owner_id !== userId) throw forbidden('Only the author can edit this comment');
    await this.deps.comments.updateContent(commentId, content, this.now());
    await this.deps.changes.changed();
    await this.tellFederation((f) => f.edited(commentId));
    return this.get(commentId, userId);
  }

  /** The author, or the owner of the video it is under, may remove a comment. */
  async remove(commentId: string, user: Viewer): Promise<void> {
    const row = await this.visibleComment(commentId, user);
    if (row.owner_id !== user.id && row.video.owner_id !== user.id) throw forbidden('Only the author or the video owner can delete this comment');
    await this.deps.comments.delete(commentId, row.video_id);
    await this.deps.changes.changed();
    await this.tellFederation((f) => f.removed({ id: commentId, videoId: row.video_id, authorId: row.owner_id }));
  }

  private async get(commentId: string, viewerId: string): Promise<Comment> {
    const row = await this.deps.comments.findWithOwner(commentId);
    if (!row) throw notFound('Comment');
    const liked = await this.deps.comments.likedBy(viewerId, [commentId]);
    return this.present(row, liked.has(commentId));
  }
}
