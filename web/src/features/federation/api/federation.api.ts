import type { Channel } from '@reelhouse/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const lookupKey = (handle: string) => ['federation', 'lookup', handle] as const;

/**
 * A channel found by its handle or address on another server (or this site's own, for a handle of
 * this site). The server fetches it from there, so a lookup is asked for once per handle and kept
 * a while; a channel nobody answers for is not asked again on every render.
 */
export function useRemoteChannelLookup(handle: string, enabled: boolean) {
  return useQuery({
    queryKey: lookupKey(handle),
    queryFn: ({ signal }) => api.get<Channel>('/federation/lookup', { handle }, signal),
    enabled,
    retry: false,
    staleTime: 5 * 60_000,
  });
}

/** Records a (un)subscription in the remembered lookup, which is not asked for again for a while. */
export function useSetLookedUpSubscription(handle: string) {
  const qc = useQueryClient();
  return (subscribed: boolean) => qc.setQueryData<Channel>(lookupKey(handle), (c) => (c ? { ...c, isSubscribed: subscribed } : c));
}
