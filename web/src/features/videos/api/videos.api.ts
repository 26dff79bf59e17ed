import type { VideoDetail, VideoPage, VideoSummary } from '@reelhouse/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { uploadWithProgress, type UploadProgress } from '@/lib/upload';

export interface VideoListParams {
  query?: string;
  userId?: string;
}

export const videoKeys = {
  all: ['videos'] as const,
  list: (p: VideoListParams) => ['videos', 'list', p.query ?? '', p.userId ?? ''] as const,
  detail: (id: string) => ['videos', 'detail', id] as const,
};

export function fetchVideos(params: VideoListParams & { pageNumber: number }, signal?: AbortSignal) {
  return api.get<VideoPage>('/videos/', { query: params.query, userId: params.userId, pageNumber: params.pageNumber }, signal);
}

/** Merges pages into one list: page 1 replaces, later pages append. */
export function mergePages(pages: VideoPage[] | undefined): VideoSummary[] {
  if (!pages) return [];
  const seen = new Set<string>();
  const out: VideoSummary[] = [];
  for (const page of pages) {
    for (const v of page.videos) {
      if (!seen.has(v._id)) {
        seen.add(v._id);
        out.push(v);
      }
    }
  }
  return out;
}

export function useVideoList(params: VideoListParams, enabled = true) {
  return useInfiniteQuery<VideoPage, Error, InfiniteData<VideoPage>, ReturnType<typeof videoKeys.list>, number>({
    queryKey: videoKeys.list(params),
    queryFn: ({ pageParam, signal }) => fetchVideos({ ...params, pageNumber: pageParam }, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasNextPage && last.nextPage ? last.nextPage : undefined),
    enabled,
  });
}

export const PROCESSING_POLL_MS = 1000;

/** A live that has not started, or has ended with its replay not there yet, is asked about now and then. */
export const LIVE_POLL_MS = 5000;

/**
 * How often the video page asks again: every second while the video is still processing; now and
 * then for a live waiting to go on air (its chat stream says so sooner) or ended without its replay yet.
 */
export function videoPollInterval(status: VideoDetail['status'] | undefined, live?: VideoDetail['live'], hasHls = false): number | false {
  if (status === 'processing') return PROCESSING_POLL_MS;
  if (live?.status === 'upcoming' || (live?.status === 'ended' && !hasHls)) return LIVE_POLL_MS;
  return false;
}

export function useVideo(id: string, enabled = true) {
  return useQuery({
    enabled: enabled && Boolean(id),
    queryKey: videoKeys.detail(id),
    queryFn: ({ signal }) => api.get<VideoDetail>(`/videos/${id}`, undefined, signal),
    // A video still being processed is polled every second (an H.264 upload is playable about a
    // second after it lands); polling stops once it is ready or failed.
    refetchInterval: (q) => videoPollInterval(q.state.data?.status, q.state.data?.live, Boolean(q.state.data?.hls)),
    retry: (count, err) => count < 1 && !(err as { status?: number }).status,
  });
}

export function useUpdateVideo(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) => api.patch<VideoDetail>(`/videos/${id}`, form),
    onSuccess: () => qc.invalidateQueries({ queryKey: videoKeys.all }),
  });
}

export function useDeleteVideo(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.del(`/videos/${id}`),
    onSuccess: () => {
      qc.removeQueries({ queryKey: videoKeys.detail(id) });
      void qc.invalidateQueries({ queryKey: ['videos', 'list'] });
    },
  });
}

export function useTogglePublish(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.patch<{ isPublished: boolean } | VideoSummary>(`/videos/publish/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: videoKeys.all }),
  });
}

export function incrementViews(id: string) {
  return api.patch(`/videos/increment-views/${id}`);
}

/** Makes a finished resumable upload a video: title, description and thumbnail, as POST /videos/ takes them. */
export function createVideoFromUpload(uploadId: string, form: FormData, onProgress?: (p: UploadProgress) => void, signal?: AbortSignal) {
  return uploadWithProgress<VideoSummary>('POST', `/uploads/${encodeURIComponent(uploadId)}/video`, form, onProgress, signal);
}
