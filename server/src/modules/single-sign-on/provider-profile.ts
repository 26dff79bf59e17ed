import { Email } from '@reelhouse/contract';
import { badRequest } from '../../http/errors.js';
import type { ProviderClaims } from './openid-clients.js';

/** What a new account takes from a provider's claims. */
export interface ProviderProfile {
  username: string;
  email: string;
  fullName: string;
  emailVerified: boolean;
}

/**
 * The username a new account wants, from the claims people recognise: the provider's username,
 * else the address before the @, else the name; folded to this site's a-z, 0-9, _ and . (accents
 * dropped), 3-30 characters. Made unique by the users service.
 */
export function wantedUsername(claims: Pick<ProviderClaims, 'preferredUsername' | 'email' | 'name'>): string {
  const source = claims.preferredUsername ?? claims.email?.split('@')[0] ?? claims.name ?? '';
  const folded = source
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9_.]+/g, '_')
    .replace(/^[._]+|[._]+$/g, '')
    .slice(0, 30);
  return folded.length >= 3 ? folded : `${folded || 'user'}_${Math.random().toString(36).slice(2, 8)}`.slice(0, 30);
}

/** The new account's fields, or a clear refusal when the provider kept back what an account needs. */
export function profileFrom(claims: ProviderClaims, label: string): ProviderProfile {
  const email = claims.email ? Email.safeParse(claims.email) : null;
  if (!email?.success) throw badRequest(`${label} did not share a valid email address, which an account on this site needs`);
  const fullName = (claims.name ?? claims.preferredUsername ?? email.data.split('@')[0]!).slice(0, 60);
  return { username: wantedUsername(claims), email: email.data, fullName, emailVerified: claims.emailVerified };
}
