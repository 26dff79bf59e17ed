import type { User } from '@reelhouse/contract';
import { api } from '@/lib/api-client';

export async function login(email: string, password: string): Promise<User> {
  // A wrong password is a 401 that must not trigger a token refresh.
  const env = await api.request<{ user: User }>('/users/login', {
    method: 'POST',
    body: { email, password },
    skipRefresh: true,
  });
  return env.data.user;
}

export async function logout(): Promise<void> {
  await api.request('/users/logout', { method: 'POST', skipRefresh: true });
}

export async function register(form: FormData): Promise<User> {
  return api.post<User>('/users/register', form);
}

export const DEMO_EMAIL: string = import.meta.env.VITE_DEMO_EMAIL ?? 'demo@reelhouse.dev';
export const DEMO_PASSWORD: string = import.meta.env.VITE_DEMO_PASSWORD ?? 'demo-account-2026';
