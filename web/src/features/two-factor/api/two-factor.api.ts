import type { RecoveryCodes, TwoFactorSetup, User } from '@reelhouse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const statusKey = ['two-factor', 'status'] as const;

/** Whether the signed-in account has two-factor sign-in on, read fresh each time the page opens. */
export function useTwoFactorEnabled() {
  return useQuery({
    queryKey: statusKey,
    queryFn: async ({ signal }) => (await api.get<User>('/users/user/current', undefined, signal)).twoFactorEnabled === true,
    staleTime: 0,
  });
}

export function useSetUpTwoFactor() {
  return useMutation({ mutationFn: () => api.post<TwoFactorSetup>('/users/2fa/setup') });
}

export function useEnableTwoFactor() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api.post<RecoveryCodes>('/users/2fa/enable', { code }),
    onSuccess: () => qc.invalidateQueries({ queryKey: statusKey }),
  });
}

export function useDisableTwoFactor() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { password: string; code: string }) => api.post<Record<string, never>>('/users/2fa/disable', body),
    onSuccess: () => qc.invalidateQueries({ queryKey: statusKey }),
  });
}

/** Ten new recovery codes for the password and a code; the old ones stop working. */
export function useNewRecoveryCodes() {
  return useMutation({
    mutationFn: (body: { password: string; code: string }) => api.post<RecoveryCodes>('/users/2fa/recovery-codes', body),
  });
}
