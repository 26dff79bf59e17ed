import type { Caption } from '@reelhouse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { parseWebVtt, type TranscriptCue } from './webvtt';

/** The video's query key (the videos feature's), refreshed after a change so the player and the list follow. */
const videoDetailKey = (videoId: string) => ['videos', 'detail', videoId] as const;

export interface CaptionUpload {
  language: string;
  label: string;
  file: File;
}

export function useUploadCaption(videoId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ language, label, file }: CaptionUpload) => {
      const form = new FormData();
      form.append('language', language);
      if (label.trim()) form.append('label', label.trim());
      form.append('file', file);
      return api.post<Caption>(`/videos/${videoId}/captions`, form);
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: videoDetailKey(videoId) }),
  });
}

export function useDeleteCaption(videoId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (captionId: string) => api.del(`/videos/${videoId}/captions/${captionId}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: videoDetailKey(videoId) }),
  });
}

/** A caption file's cues, for the transcript. The file is the same one the player loads. */
export function useCaptionCues(url: string | null) {
  return useQuery<TranscriptCue[]>({
    queryKey: ['captions', 'cues', url],
    enabled: Boolean(url),
    staleTime: Infinity,
    queryFn: async ({ signal }) => {
      const res = await fetch(url!, { signal });
      if (!res.ok) throw new Error(`The captions could not be loaded (${res.status})`);
      return parseWebVtt(await res.text());
    },
  });
}
