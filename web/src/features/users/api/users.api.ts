import type { User, WatchHistoryPage } from '@reelhouse/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const updateAccount = (body: { fullName?: string; username?: string }) => api.patch<User>('/users/update-account', body);

export function changeAvatar(file: File) {
  const form = new FormData();
  form.append('avatar', file);
  return api.patch<User>('/users/change-avatar', form);
}

export function changeCoverImage(file: File) {
  const form = new FormData();
  form.append('coverImage', file);
  return api.patch<User>('/users/change-cover-image', form);
}

export const changePassword = (oldPassword: string, newPassword: string) => api.patch('/users/change-password', { oldPassword, newPassword });

export const deleteAccount = () => api.del('/users/delete-account');

export const recordWatch = (videoId: string) => api.patch(`/users/watch-history/${videoId}`);

export function useWatchHistory() {
  return useInfiniteQuery({
    queryKey: ['users', 'watch-history'],
    queryFn: ({ pageParam, signal }) => api.get<WatchHistoryPage>('/users/watch-history/', { pageNumber: pageParam }, signal),
    initialPageParam: 1,
    getNextPageParam: (last: WatchHistoryPage) => (last.hasNextPage && last.nextPage ? last.nextPage : undefined),
    staleTime: 0,
  });
}
