import type { LikeToggleResult, VideoPage } from '@reelhouse/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type LikeTarget = 'video' | 'comment';

export function toggleLike(contentType: LikeTarget, contentId: string) {
  return api.post<LikeToggleResult>(`/likes/toggle/${contentType}/${contentId}/`);
}

export function useLikedVideos() {
  return useInfiniteQuery({
    queryKey: ['likes', 'videos'],
    queryFn: ({ pageParam, signal }) => api.get<VideoPage>('/likes/videos', { pageNumber: pageParam }, signal),
    initialPageParam: 1,
    getNextPageParam: (last: VideoPage) => (last.hasNextPage && last.nextPage ? last.nextPage : undefined),
  });
}
