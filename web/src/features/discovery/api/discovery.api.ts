import type { RelatedVideos, VideoPage } from '@reelhouse/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const discoveryKeys = {
  trending: ['videos', 'trending'] as const,
  related: (id: string) => ['videos', 'related', id] as const,
};

/** Trending: listed videos ranked by the views and likes of the last week, page after page. */
export function useTrending() {
  return useInfiniteQuery({
    queryKey: discoveryKeys.trending,
    queryFn: ({ pageParam, signal }) => api.get<VideoPage>('/videos/trending', { pageNumber: pageParam }, signal),
    initialPageParam: 1,
    getNextPageParam: (last: VideoPage) => (last.hasNextPage && last.nextPage ? last.nextPage : undefined),
  });
}

/** Up next for a video, best first; never the video itself. */
export function useRelated(videoId: string) {
  return useQuery({
    queryKey: discoveryKeys.related(videoId),
    queryFn: ({ signal }) => api.get<RelatedVideos>(`/videos/${videoId}/related`, undefined, signal).then((d) => d.videos),
    enabled: Boolean(videoId),
  });
}
