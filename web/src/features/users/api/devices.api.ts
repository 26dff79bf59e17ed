import type { Device, SignedOutDevices } from '@reelhouse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const devicesKey = ['users', 'devices'] as const;

/** The account's signed-in devices, read fresh each time the page opens. */
export function useDevices() {
  return useQuery({
    queryKey: devicesKey,
    queryFn: ({ signal }) => api.get<Device[]>('/users/sessions', undefined, signal),
    staleTime: 0,
  });
}

export function useSignOutDevice() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) => api.del(`/users/sessions/${encodeURIComponent(sessionId)}`),
    onSettled: () => qc.invalidateQueries({ queryKey: devicesKey }),
  });
}

export function useSignOutOtherDevices() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.del<SignedOutDevices>('/users/sessions'),
    onSettled: () => qc.invalidateQueries({ queryKey: devicesKey }),
  });
}
