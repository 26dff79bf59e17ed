import type { Playlist, PlaylistDetail } from '@reelhouse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const playlistKeys = {
  all: ['playlists'] as const,
  byUser: (userId: string) => ['playlists', 'user', userId] as const,
  detail: (id: string) => ['playlists', 'detail', id] as const,
};

export function useUserPlaylists(userId: string | undefined) {
  return useQuery({
    queryKey: playlistKeys.byUser(userId ?? ''),
    queryFn: ({ signal }) => api.get<Playlist[]>(`/playlist/user/${userId}`, undefined, signal),
    enabled: Boolean(userId),
  });
}

export function usePlaylist(id: string) {
  return useQuery({
    queryKey: playlistKeys.detail(id),
    queryFn: ({ signal }) => api.get<PlaylistDetail>(`/playlist/${id}`, undefined, signal),
    retry: false,
  });
}

export interface NewPlaylistInput {
  name: string;
  description: string;
}

/** Name and description are both required. */
export function validateNewPlaylist(input: NewPlaylistInput): { name?: string; description?: string } {
  const errors: { name?: string; description?: string } = {};
  if (!input.name.trim()) errors.name = 'Name is required';
  if (!input.description.trim()) errors.description = 'Description is required';
  return errors;
}

export function useCreatePlaylist() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: NewPlaylistInput) =>
      api.post<Playlist>('/playlist/', { name: input.name.trim(), description: input.description.trim() }),
    onSuccess: () => qc.invalidateQueries({ queryKey: playlistKeys.all }),
  });
}

export function useDeletePlaylist() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del(`/playlist/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: playlistKeys.all }),
  });
}

export function useAddRemoveVideo() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ videoId, playlistId, add }: { videoId: string; playlistId: string; add: boolean }) =>
      api.patch<Playlist>(`/playlist/${add ? 'add' : 'remove'}/${videoId}/${playlistId}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: playlistKeys.all }),
  });
}
