import type { FollowedChannelPage, VideoPage } from '@reelhouse/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export function toggleSubscription(channelId: string) {
  return api.post<boolean>(`/subscriptions/channel/${channelId}`);
}

export function useMySubscriberCount(enabled = true) {
  return useQuery({
    queryKey: ['subscriptions', 'my-count'],
    queryFn: () => api.get<{ count: number }>('/subscriptions/user/subscriber-count').then((d) => d.count),
    enabled,
  });
}

/** The newest videos of the channels the user follows, page after page. */
export function useSubscriptionFeed(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: ['subscriptions', 'feed'],
    queryFn: ({ pageParam, signal }) => api.get<VideoPage>('/feed/subscriptions', { pageNumber: pageParam }, signal),
    initialPageParam: 1,
    getNextPageParam: (last: VideoPage) => (last.hasNextPage && last.nextPage ? last.nextPage : undefined),
    enabled,
  });
}

/** The channels the user follows, for the sidebar (the first fifty by name). */
export function useFollowedChannels(enabled: boolean) {
  return useQuery({
    queryKey: ['subscriptions', 'channels'],
    queryFn: ({ signal }) => api.get<FollowedChannelPage>('/subscriptions/user/channels', { pageSize: 50 }, signal),
    enabled,
  });
}
