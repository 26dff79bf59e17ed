import type {
  AdminJob,
  AdminJobs,
  AdminStats,
  AdminUser,
  AdminUserPage,
  AdminUserPatch,
  AdminVideo,
  AdminVideoPage,
  AuditPage,
  InstanceSettings,
  InstanceSettingsPatch,
  ModerationBody,
  ReportGroup,
} from '@reelhouse/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Everything the admin area reads is staff data: always fresh, never cached across visits. */
const fresh = { staleTime: 0, placeholderData: keepPreviousData } as const;

export interface UsersFilter {
  query?: string;
  role?: string;
  banned?: string;
  pageNumber: number;
}
export function useAdminUsers(f: UsersFilter) {
  return useQuery({
    queryKey: ['admin', 'users', f],
    queryFn: ({ signal }) => api.get<AdminUserPage>('/admin/users', { ...f, pageSize: 20 }, signal),
    ...fresh,
  });
}

export function useUpdateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: AdminUserPatch }) => api.patch<AdminUser>(`/admin/users/${id}`, patch),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }),
  });
}

/** For someone who lost their authenticator and recovery codes: their two-factor sign-in goes off and they are signed out. */
export function useTurnOffTwoFactor() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del<AdminUser>(`/admin/users/${id}/2fa`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }),
  });
}

export interface VideosFilter {
  status?: string;
  query?: string;
  pageNumber: number;
}
export function useAdminVideos(f: VideosFilter) {
  return useQuery({
    queryKey: ['admin', 'videos', f],
    queryFn: ({ signal }) => api.get<AdminVideoPage>('/admin/videos', { ...f, pageSize: 20 }, signal),
    ...fresh,
  });
}

export function useRetryVideo() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<AdminVideo>(`/admin/videos/${id}/retry`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }),
  });
}

/** The queue moves on its own: it is read again every few seconds while the page is open. */
export function useAdminJobs() {
  return useQuery({
    queryKey: ['admin', 'jobs'],
    queryFn: ({ signal }) => api.get<AdminJobs>('/admin/jobs', undefined, signal),
    refetchInterval: 5000,
    ...fresh,
  });
}

export function useRetryJob() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<AdminJob>(`/admin/jobs/${encodeURIComponent(id)}/retry`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }),
  });
}

export function useAdminStats() {
  return useQuery({ queryKey: ['admin', 'stats'], queryFn: ({ signal }) => api.get<AdminStats>('/admin/stats', undefined, signal), ...fresh });
}

export function useAdminSettings() {
  return useQuery({ queryKey: ['admin', 'settings'], queryFn: ({ signal }) => api.get<InstanceSettings>('/admin/settings', undefined, signal), staleTime: 0 });
}

export function useUpdateSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: InstanceSettingsPatch) => api.patch<InstanceSettings>('/admin/settings', patch),
    onSuccess: (saved) => {
      qc.setQueryData(['admin', 'settings'], saved);
      // The public view of the site (name, sign-up mode, limits) follows.
      void qc.invalidateQueries({ queryKey: ['instance'] });
    },
  });
}

export function useAuditLog(pageNumber: number) {
  return useQuery({
    queryKey: ['admin', 'audit-log', pageNumber],
    queryFn: ({ signal }) => api.get<AuditPage>('/admin/audit-log', { pageNumber, pageSize: 25 }, signal),
    ...fresh,
  });
}

export function useReports(state: 'open' | 'resolved' | 'dismissed') {
  return useQuery({
    queryKey: ['admin', 'reports', state],
    queryFn: ({ signal }) => api.get<{ groups: ReportGroup[] }>('/admin/reports', { state }, signal),
    ...fresh,
  });
}

export function useModerate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ reportId, body }: { reportId: string; body: ModerationBody }) => api.patch(`/admin/reports/${reportId}`, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }),
  });
}
