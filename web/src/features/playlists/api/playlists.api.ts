import type { Playlist, PlaylistDetail, PlaylistVisibility } from '@reelhouse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { i18n } from '@/i18n/i18n';
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

export function usePlaylist(id: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: playlistKeys.detail(id),
    queryFn: ({ signal }) => api.get<PlaylistDetail>(`/playlist/${id}`, undefined, signal),
    retry: false,
    enabled: options.enabled ?? true,
  });
}

/** Where the current video sits in a playlist being watched in order, and what plays after it. */
export interface PlaylistPosition {
  /** Index of the current video in the playlist, -1 when it is not in it. */
  index: number;
  total: number;
  /** The next video's address (with `list=` kept), null at the end or off the list. */
  next: string | null;
}

export function playlistPosition(playlist: Pick<PlaylistDetail, '_id' | 'videos'>, videoId: string): PlaylistPosition {
  const index = playlist.videos.findIndex((v) => v._id === videoId);
  const following = index >= 0 ? playlist.videos[index + 1] : undefined;
  return { index, total: playlist.videos.length, next: following ? watchInListPath(following._id, playlist._id) : null };
}

export interface NewPlaylistInput {
  name: string;
  description: string;
}

/** Name and description are both required; the messages are in the interface's language. */
export function validateNewPlaylist(input: NewPlaylistInput): { name?: string; description?: string } {
  const errors: { name?: string; description?: string } = {};
  if (!input.name.trim()) errors.name = i18n.t('playlists:form.nameRequired');
  if (!input.description.trim()) errors.description = i18n.t('playlists:form.descriptionRequired');
  return errors;
}

export function useCreatePlaylist() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: NewPlaylistInput) => api.post<Playlist>('/playlist/', { name: input.name.trim(), description: input.description.trim() }),
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

export function useSetPlaylistVisibility(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (visibility: PlaylistVisibility) => api.patch<Playlist>(`/playlist/${id}`, { visibility }),
    onSuccess: () => qc.invalidateQueries({ queryKey: playlistKeys.all }),
  });
}

/** Where a playlist plays from its start: its first video, keeping the playlist in the address. */
export function playAllPath(playlist: Pick<Playlist, '_id' | 'videos'> | Pick<PlaylistDetail, '_id' | 'videos'>): string | null {
  const first = playlist.videos[0];
  if (!first) return null;
  return watchInListPath(typeof first === 'string' ? first : first._id, playlist._id);
}

export function watchInListPath(videoId: string, playlistId: string): string {
  return `/video/${videoId}?list=${encodeURIComponent(playlistId)}`;
}

/** The public playlists of a channel, for everyone (its owner's unlisted and private ones stay off). */
export function publicPlaylists(playlists: Playlist[]): Playlist[] {
  return playlists.filter((p) => p.visibility === 'public');
}

export function useAddRemoveVideo() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ videoId, playlistId, add }: { videoId: string; playlistId: string; add: boolean }) =>
      api.patch<Playlist>(`/playlist/${add ? 'add' : 'remove'}/${videoId}/${playlistId}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: playlistKeys.all }),
  });
}
