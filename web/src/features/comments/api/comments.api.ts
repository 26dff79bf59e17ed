import type { Comment, CommentPage } from '@reelhouse/contract';
import { useInfiniteQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '@/lib/api-client';

export const commentKeys = {
  list: (videoId: string) => ['comments', videoId] as const,
  replies: (commentId: string) => ['comments', 'replies', commentId] as const,
};

export function useComments(videoId: string) {
  return useInfiniteQuery({
    queryKey: commentKeys.list(videoId),
    queryFn: ({ pageParam, signal }) => api.get<CommentPage>(`/comments/${videoId}`, { pageNumber: pageParam }, signal),
    initialPageParam: 1,
    getNextPageParam: (last: CommentPage) => (last.hasNextPage && last.nextPage ? last.nextPage : undefined),
    retry: false,
  });
}

export const addComment = (videoId: string, content: string, parentId?: string) =>
  api.post<Comment>(`/comments/${videoId}`, parentId ? { content, parentId } : { content });
export const togglePin = (commentId: string) => api.patch<Comment>(`/comments/${commentId}/pin`);
export const toggleHeart = (commentId: string) => api.patch<Comment>(`/comments/${commentId}/heart`);

/** A comment's replies, oldest first, loaded when the thread is opened. */
export function useReplies(commentId: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: commentKeys.replies(commentId),
    queryFn: ({ pageParam, signal }) => api.get<CommentPage>(`/comments/${commentId}/replies`, { pageNumber: pageParam }, signal),
    initialPageParam: 1,
    getNextPageParam: (last: CommentPage) => (last.hasNextPage && last.nextPage ? last.nextPage : undefined),
    enabled,
    retry: false,
  });
}
export const editComment = (commentId: string, content: string) => api.patch<Comment>(`/comments/${commentId}`, { content });
export const deleteComment = (commentId: string) => api.del(`/comments/${commentId}`);

type Pages = InfiniteData<CommentPage, number>;

/** Cache edits: a new comment goes on top, an edited one is replaced in place, a deleted one removed. */
export function useCommentCache(videoId: string) {
  const qc = useQueryClient();
  const update = useCallback(
    (fn: (pages: CommentPage[]) => CommentPage[]) => qc.setQueryData<Pages>(commentKeys.list(videoId), (old) => (old ? { ...old, pages: fn(old.pages) } : old)),
    [qc, videoId],
  );
  return {
    prepend: (c: Comment) => update((pages) => pages.map((p, i) => (i === 0 ? { ...p, comments: [c, ...p.comments], totalDocs: p.totalDocs + 1 } : p))),
    replace: (c: Comment) => update((pages) => pages.map((p) => ({ ...p, comments: p.comments.map((x) => (x._id === c._id ? { ...x, ...c } : x)) }))),
    remove: (id: string) =>
      update((pages) =>
        pages.map((p) => ({
          ...p,
          comments: p.comments.filter((x) => x._id !== id),
          totalDocs: Math.max(0, p.totalDocs - (p.comments.some((x) => x._id === id) ? 1 : 0)),
        })),
      ),
  };
}
