import { useQuery } from '@tanstack/react-query';
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
