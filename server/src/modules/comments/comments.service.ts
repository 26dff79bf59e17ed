import { type Comment, type CommentPage, pageInfo } from '@reelhouse/contract';
import { forbidden, notFound } from '../../http/errors.js';
import { newId, toIso } from '../../lib/ids.js';
import type { Storage } from '../../storage/storage.js';
import { canWatch, type Viewer } from '../videos/video-access.js';
import { type DefaultImages, defaultImages } from '../../lib/default-images.js';
import type { CommentAccessRow, CommentsRepository, CommentWithOwnerRow } from './comments.repository.js';

/**
 * Comments under videos. Comments share their video's visibility: under a video the caller may not
 * see there are no comments to read, add, edit or delete.
 */
export class CommentsService {
  constructor(private readonly deps: { comments: CommentsRepository; storage: Storage; defaultImages?: DefaultImages; now?: () => number }) {}

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
    };
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

  async list(videoId: string, viewer: Viewer | null, page: { pageNumber: number; pageSize: number }): Promise<CommentPage> {
    await this.assertVideoVisible(videoId, viewer);
    const viewerId = viewer?.id ?? null;
    const { rows, total } = await this.deps.comments.page(videoId, (page.pageNumber - 1) * page.pageSize, page.pageSize);
    const liked = viewerId ? await this.deps.comments.likedBy(viewerId, rows.map((r) => r.id)) : new Set<string>();
    return { comments: rows.map((r) => this.present(r, liked.has(r.id))), ...pageInfo(total, page.pageNumber, page.pageSize) };
  }

  async add(videoId: string, user: Viewer, content: string): Promise<Comment> {
    await this.assertVideoVisible(videoId, user);
    const userId = user.id;
    const now = this.now();
    const id = newId();
    const added = await this.deps.comments.insert({ id, video_id: videoId, owner_id: userId, content, likes_count: 0, created_at: now, updated_at: now });
    if (!added) throw notFound('Video');
    return this.get(id, userId);
  }

  async edit(commentId: string, user: Viewer, content: string): Promise<Comment> {
    const row = await this.visibleComment(commentId, user);
    const userId = user.id;
    if (row.owner_id !== userId) throw forbidden('Only the author can edit this comment');
    await this.deps.comments.updateContent(commentId, content, this.now());
    return this.get(commentId, userId);
  }

  /** The author, or the owner of the video it is under, may remove a comment. */
  async remove(commentId: string, user: Viewer): Promise<void> {
    const row = await this.visibleComment(commentId, user);
    if (row.owner_id !== user.id && row.video.owner_id !== user.id) throw forbidden('Only the author or the video owner can delete this comment');
    await this.deps.comments.delete(commentId, row.video_id);
  }

  private async get(commentId: string, viewerId: string): Promise<Comment> {
    const row = await this.deps.comments.findWithOwner(commentId);
    if (!row) throw notFound('Comment');
    const liked = await this.deps.comments.likedBy(viewerId, [commentId]);
    return this.present(row, liked.has(commentId));
  }
}
