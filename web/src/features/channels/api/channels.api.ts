import type { Channel } from '@reelhouse/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export function useChannel(channelName: string) {
  return useQuery({
    queryKey: ['channels', channelName],
    queryFn: ({ signal }) => api.get<Channel>(`/users/channel/${encodeURIComponent(channelName)}`, undefined, signal),
    retry: false,
  });
}
