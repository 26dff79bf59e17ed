import type { AdminBackups } from '@reelhouse/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const KEY = ['admin', 'backups'] as const;

/** A backup runs for a while after it is asked for: read again every few seconds while the page is open. */
export function useAdminBackups() {
  return useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => api.get<AdminBackups>('/admin/backups', undefined, signal),
    refetchInterval: 5000,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

export function useStartBackup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<AdminBackups>('/admin/backups'),
    onSuccess: (backups) => qc.setQueryData(KEY, backups),
  });
}
