import type { User } from '@reelhouse/contract';
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

export async function resendVerification(): Promise<void> {
  await api.post('/users/resend-verification');
}
