import type { Passkey, User } from '@reelhouse/contract';
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  WebAuthnAbortService,
} from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const passkeysKey = ['users', 'passkeys'] as const;

export const passkeysSupported = () => browserSupportsWebAuthn();
/** Whether the browser can offer passkeys among a field's autofill suggestions (conditional mediation). */
export const passkeyAutofillSupported = () => browserSupportsWebAuthnAutofill();
/** Ends a passkey request still waiting (the autofill one when the page goes). */
export const cancelPasskeyRequest = () => WebAuthnAbortService.cancelCeremony();

export function usePasskeys() {
  return useQuery({
    queryKey: passkeysKey,
    queryFn: ({ signal }) => api.get<Passkey[]>('/users/passkeys', undefined, signal),
    staleTime: 0,
  });
}

/** Asks the server for options, lets the browser make the passkey (its own prompt), and stores it. */
export function useAddPasskey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (name?: string) => {
      const optionsJSON = await api.post<PublicKeyCredentialCreationOptionsJSON>('/users/passkeys/registration-options');
      const response = await startRegistration({ optionsJSON });
      return api.post<Passkey>('/users/passkeys', { response, ...(name ? { name } : {}) });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: passkeysKey }),
  });
}

export function useRemovePasskey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (passkeyId: string) => api.del(`/users/passkeys/${encodeURIComponent(passkeyId)}`),
    onSettled: () => qc.invalidateQueries({ queryKey: passkeysKey }),
  });
}

/**
 * Signs in with any passkey of this site the browser holds: no email needed, the passkey names its
 * account. With autofill, the browser offers the passkeys in the email field's suggestions instead
 * of a prompt, and the promise settles only when one is picked.
 */
export async function signInWithPasskey(opts: { autofill?: boolean } = {}): Promise<User> {
  const optionsJSON = await api.post<PublicKeyCredentialRequestOptionsJSON>('/users/passkeys/authentication-options');
  const response = await startAuthentication({ optionsJSON, useBrowserAutofill: opts.autofill ?? false });
  // A passkey the server refuses is a 401 that must not trigger a token refresh.
  const env = await api.request<{ user: User }>('/users/login/passkey', { method: 'POST', body: { response }, skipRefresh: true });
  return env.data.user;
}
