import type { LinkedIdentity } from '@reelhouse/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, API_BASE, buildUrl } from '@/lib/api-client';

const identitiesKey = ['users', 'identities'] as const;

/**
 * Where the browser goes to sign in (or, with `link`, to link the provider to this account) with a
 * provider: a full page load, since the provider's pages come next. The server sends the browser
 * back to `returnTo` afterwards.
 */
export function providerUrl(name: string, opts: { returnTo?: string; link?: boolean } = {}): string {
  return buildUrl(API_BASE, `/auth/oidc/${encodeURIComponent(name)}`, {
    returnTo: opts.returnTo && opts.returnTo.startsWith('/') && !opts.returnTo.startsWith('//') ? opts.returnTo : undefined,
    link: opts.link ? 'true' : undefined,
  });
}

/** The refusal a provider's sign-in came back with (the server puts it in `ssoError`), if any. */
export function ssoErrorIn(search: string): string | null {
  return new URLSearchParams(search).get('ssoError');
}

export function useLinkedIdentities() {
  return useQuery({
    queryKey: identitiesKey,
    queryFn: ({ signal }) => api.get<LinkedIdentity[]>('/users/identities', undefined, signal),
    staleTime: 0,
  });
}

export function useUnlinkIdentity() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (identityId: string) => api.del(`/users/identities/${encodeURIComponent(identityId)}`),
    onSettled: () => qc.invalidateQueries({ queryKey: identitiesKey }),
  });
}
