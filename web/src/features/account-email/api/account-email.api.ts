import type { User } from '@reelhouse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Always answers the same message, whether or not an account uses the address. */
export async function forgotPassword(email: string): Promise<string> {
  return (await api.request<object>('/users/forgot-password', { method: 'POST', body: { email }, skipRefresh: true })).message;
}

export async function resetPassword(token: string, newPassword: string): Promise<void> {
  await api.request('/users/reset-password', { method: 'POST', body: { token, newPassword }, skipRefresh: true });
}

export async function verifyEmail(token: string): Promise<User> {
  return (await api.request<User>('/users/verify-email', { method: 'POST', body: { token }, skipRefresh: true })).data;
}

/** Mails the signed-in account a new confirmation link; answers the server's message. */
export async function resendVerification(): Promise<string> {
  return (await api.request<object>('/users/resend-verification', { method: 'POST' })).message;
}

const accountKey = ['account-email', 'account'] as const;

/** The signed-in account's address and whether it is confirmed, read fresh each time the page opens. */
export function useAccountEmail() {
  return useQuery({
    queryKey: accountKey,
    queryFn: ({ signal }) => api.get<User>('/users/user/current', undefined, signal),
    staleTime: 0,
  });
}

/**
 * Asks for a new address. Where the site checks addresses the answer still holds the old one (the
 * new one waits for its link); elsewhere it holds the new one.
 */
export function useChangeEmail() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => api.patch<User>('/users/update-account', { email }),
    onSuccess: (user) => qc.setQueryData(accountKey, user),
  });
}
