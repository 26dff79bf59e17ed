import type { CreatedLive, CreateLiveBody, LiveDetail, LiveKey, LivePage, StudioVideoPage, UpdateLiveBody, VideoDetail } from '@reelhouse/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const liveKeys = {
  all: ['live'] as const,
  detail: (id: string) => ['live', 'detail', id] as const,
  mine: ['live', 'mine'] as const,
  onAir: ['videos', 'live'] as const,
};

/** How often the Go live page asks for the stream's health. */
export const HEALTH_POLL_MS = 3000;

/** A live's key, ingest address, health and chat settings (its owner and admins only). */
export function useLiveDetail(videoId: string | null) {
  return useQuery({
    queryKey: liveKeys.detail(videoId ?? ''),
    queryFn: ({ signal }) => api.get<LiveDetail>(`/live/${videoId}`, undefined, signal),
    enabled: Boolean(videoId),
    refetchInterval: (q) => (q.state.data?.status === 'ended' ? false : HEALTH_POLL_MS),
  });
}

/**
 * The signed-in user's lives, newest first: the studio's own list, of which the rows carrying a
 * live state. Ended lives that became ordinary replays no longer carry one.
 */
export function useMyLives() {
  return useQuery({
    queryKey: liveKeys.mine,
    queryFn: ({ signal }) =>
      api.get<StudioVideoPage>('/studio/videos', { sortBy: 'createdAt', sortType: 'desc', pageSize: 50 }, signal).then((p) => p.videos.filter((v) => v.live)),
  });
}

export function useCreateLive() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateLiveBody) => api.post<CreatedLive>('/live', body),
    onSuccess: () => void qc.invalidateQueries({ queryKey: liveKeys.mine }),
  });
}

export function useUpdateLive(videoId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateLiveBody) => api.patch<VideoDetail>(`/live/${videoId}`, body),
    onSuccess: () => void qc.invalidateQueries({ queryKey: liveKeys.detail(videoId) }),
  });
}

/** A new stream key: the old one stops working at once. */
export function useRenewKey(videoId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<LiveKey>(`/live/${videoId}/key`),
    onSuccess: ({ streamKey }) => qc.setQueryData<LiveDetail>(liveKeys.detail(videoId), (old) => (old ? { ...old, streamKey } : old)),
  });
}

export function useEndLive(videoId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<VideoDetail>(`/live/${videoId}/end`),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: liveKeys.all });
      void qc.invalidateQueries({ queryKey: ['videos'] });
    },
  });
}

/** The home page's Live tab: videos on air, most viewers first. */
export function useOnAir() {
  return useInfiniteQuery({
    queryKey: liveKeys.onAir,
    queryFn: ({ pageParam, signal }) => api.get<LivePage>('/videos/live', { pageNumber: pageParam }, signal),
    initialPageParam: 1,
    getNextPageParam: (last: LivePage) => (last.hasNextPage && last.nextPage ? last.nextPage : undefined),
    refetchInterval: 30_000,
  });
}
