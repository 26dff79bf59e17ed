import type { StudioVideoPage, VideoStats, Visibility } from '@reelhouse/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type StudioSort = 'createdAt' | 'views' | 'title' | 'duration';
export interface StudioFilter {
  sortBy: StudioSort;
  sortType: 'asc' | 'desc';
  status?: 'processing' | 'ready' | 'failed';
  visibility?: Visibility;
}

export const studioKeys = {
  all: ['studio'] as const,
  list: (f: StudioFilter) => ['studio', 'list', f] as const,
  stats: (id: string) => ['studio', 'stats', id] as const,
};

/** The owner's own videos; polled while any is still processing so its progress moves. */
export function useStudioVideos(filter: StudioFilter) {
  return useQuery({
    queryKey: studioKeys.list(filter),
    queryFn: ({ signal }) => api.get<StudioVideoPage>('/studio/videos', { ...filter, pageSize: 50 }, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.videos.some((v) => v.status === 'processing') ? 2000 : false),
  });
}

export function useVideoStats(id: string | null) {
  return useQuery({
    queryKey: studioKeys.stats(id ?? ''),
    queryFn: ({ signal }) => api.get<VideoStats>(`/videos/${id}/stats`, { days: 28 }, signal),
    enabled: Boolean(id),
  });
}

/** Several videos at once, one request each: the same routes the edit dialog and delete button use. */
export function useBulkChange() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ ids, action }: { ids: string[]; action: Visibility | 'delete' }) => {
      const results = await Promise.allSettled(
        ids.map((id) => {
          if (action === 'delete') return api.del(`/videos/${id}`);
          const form = new FormData();
          form.append('visibility', action);
          return api.patch(`/videos/${id}`, form);
        }),
      );
      const failed = results.filter((r) => r.status === 'rejected').length;
      if (failed) throw new Error(`${failed} of ${ids.length} videos could not be changed`);
    },
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: studioKeys.all });
      void qc.invalidateQueries({ queryKey: ['videos'] });
    },
  });
}
