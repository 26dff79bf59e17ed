import { type Comment, type CommentPage, pageInfo } from '@reelhouse/contract';
import { forbidden, notFound } from '../../http/errors.js';
import { newId, toIso } from '../../lib/ids.js';
import type { Storage } from '../../storage/storage.js';
import { isVisibleTo } from '../videos/videos.repository.js';
import { DEFAULT_AVATAR_URL } from '../users/users.service.js';
import type { CommentAccessRow, CommentsRepository, CommentWithOwnerRow } from './comments.repository.js';

/**
 * Comments under videos. Comments share their video's visibility: under a video the caller may not
 * see there are no comments to read, add, edit or delete.
 */
export class CommentsService {
  constructor(private readonly deps: { comments: CommentsRepository; storage: Storage; now?: () => number }) {}

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
        avatar: { url: row.owner_avatar_key ? this.deps.storage.url(row.owner_avatar_key) : DEFAULT_AVATAR_URL },
      },
      likesCount: Number(row.likes_count),
      isLiked,
    };
  }

  private async assertVideoVisible(videoId: string, viewerId: string | null) {
    const video = await this.deps.comments.findVideoAccess(videoId);
    if (!video || !isVisibleTo(video, viewerId)) throw notFound('Video');
  }

  private async visibleComment(commentId: string, viewerId: string): Promise<CommentAccessRow> {
    const row = await this.deps.comments.findAccess(commentId);
    if (!row || !isVisibleTo({ owner_id: row.video_owner_id, is_published: row.is_published, status: row.status }, viewerId)) {
      throw notFound('Comment');
    }
    return row;
  }

  async list(videoId: string, viewerId: string | null, page: { pageNumber: number; pageSize: number }): Promise<CommentPage> {
    await this.assertVideoVisible(videoId, viewerId);
    const { rows, total } = await this.deps.comments.page(videoId, (page.pageNumber - 1) * page.pageSize, page.pageSize);
    const liked = viewerId ? await this.deps.comments.likedBy(viewerId, rows.map((r) => r.id)) : new Set<string>();
    return { comments: rows.map((r) => this.present(r, liked.has(r.id))), ...pageInfo(total, page.pageNumber, page.pageSize) };
  }

  async add(videoId: string, userId: string, content: string): Promise<Comment> {
    await this.assertVideoVisible(videoId, userId);
    const now = this.now();
    const id = newId();
    const added = await this.deps.comments.insert({ id, video_id: videoId, owner_id: userId, content, likes_count: 0, created_at: now, updated_at: now });
    if (!added) throw notFound('Video');
    return this.get(id, userId);
  }

  async edit(commentId: string, userId: string, content: string): Promise<Comment> {
    const row = await this.visibleComment(commentId, userId);
    if (row.owner_id !== userId) throw forbidden('Only the author can edit this comment');
    await this.deps.comments.updateContent(commentId, content, this.now());
    return this.get(commentId, userId);
  }

  /** The author, or the owner of the video it is under, may remove a comment. */
  async remove(commentId: string, userId: string): Promise<void> {
    const row = await this.visibleComment(commentId, userId);
    if (row.owner_id !== userId && row.video_owner_id !== userId) throw forbidden('Only the author or the video owner can delete this comment');
    await this.deps.comments.delete(commentId, row.video_id);
  }

  private async get(commentId: string, viewerId: string): Promise<Comment> {
    const row = await this.deps.comments.findWithOwner(commentId);
    if (!row) throw notFound('Comment');
    const liked = await this.deps.comments.likedBy(viewerId, [commentId]);
    return this.present(row, liked.has(commentId));
  }
}
