import type { User } from '@reelhouse/contract';
import { i18n } from '@/i18n/i18n';
import { api, ApiError } from '@/lib/api-client';

/** A signed-in user, or word that the account needs a code from its authenticator app. */
export type SignInResult = { user: User } | { twoFactorRequired: true };

export async function signIn(email: string, password: string, second: { code?: string; recoveryCode?: string } = {}): Promise<SignInResult> {
  // A wrong password is a 401 that must not trigger a token refresh.
  const env = await api.request<SignInResult>('/users/login', {
    method: 'POST',
    body: { email, password, ...second },
    skipRefresh: true,
  });
  return env.data;
}

/** Sign-in for accounts that never ask for a code (a new sign-up, the demo account). */
export async function login(email: string, password: string): Promise<User> {
  const result = await signIn(email, password);
  if ('user' in result) return result.user;
  throw new ApiError(401, i18n.t('auth:codeNeeded'));
}

export async function logout(): Promise<void> {
  await api.request('/users/logout', { method: 'POST', skipRefresh: true });
}

export async function register(form: FormData): Promise<User> {
  return api.post<User>('/users/register', form);
}

export const DEMO_EMAIL: string = import.meta.env.VITE_DEMO_EMAIL ?? 'demo@reelhouse.dev';
export const DEMO_PASSWORD: string = import.meta.env.VITE_DEMO_PASSWORD ?? 'demo-account-2026';
