import type { RelatedVideos, VideoPage } from '@reelhouse/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { API_BASE, api } from '@/lib/api-client';

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

const positionPath = (videoId: string) => `/users/watch-history/${videoId}`;

/** Saves where the signed-in viewer is in a video (0 forgets it: watched to the end). */
export function savePosition(videoId: string, position: number) {
  return api.patch(positionPath(videoId), { position });
}

/**
 * The same save when the page is going away (tab closed, reload): a keepalive request outlives the
 * page, where the api client's would be cancelled.
 */
export function savePositionOnLeave(videoId: string, position: number): void {
  try {
    void fetch(`${API_BASE}${positionPath(videoId)}`, {
      method: 'PATCH',
      credentials: 'include',
      keepalive: true,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ position }),
    }).catch(() => {});
  } catch {
    // Nothing to do: the last periodic save stands.
  }
}
