import { z } from 'zod';
import { Id, IsoDate } from './common.js';

/** A single sign-on provider as any client may know it (GET /instance): never its issuer or client. */
export const SignInProvider = z.object({
  /** The provider's name in URLs: GET /auth/oidc/{name}. */
  name: z.string(),
  /** What the button says after "Sign in with". */
  label: z.string(),
});
export type SignInProvider = z.infer<typeof SignInProvider>;

export const SignInProviderParams = z.object({
  name: z
    .string()
    .max(40, 'name must be at most 40 characters')
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'name must be a provider name: a-z, 0-9 and -'),
});
export type SignInProviderParams = z.infer<typeof SignInProviderParams>;

/** A page of this site, given as a path: where the browser goes after signing in. */
const ReturnTo = z
  .string()
  .max(2000, 'returnTo must be at most 2000 characters')
  .regex(/^\/(?![/\\])/, 'returnTo must be a path on this site, starting with a single /');

export const StartSignInQuery = z.object({
  returnTo: ReturnTo.optional(),
  /** "true": link the provider to the signed-in account instead of signing in. */
  link: z.enum(['true', 'false'], { error: 'link must be true or false' }).optional(),
});
export type StartSignInQuery = z.infer<typeof StartSignInQuery>;

/** What the provider adds to the callback's address (RFC 6749 4.1.2): a code, or an error. */
export const SignInCallbackQuery = z.looseObject({
  state: z.string().max(200, 'state is not a sign-in state').optional(),
  code: z.string().max(4096, 'code is too long').optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
});
export type SignInCallbackQuery = z.infer<typeof SignInCallbackQuery>;

/** One provider account linked to the caller's account, as GET /users/identities lists them. */
export const LinkedIdentity = z.object({
  _id: Id,
  /** The provider's name, and its label while the site still offers it (else the name). */
  provider: z.string(),
  label: z.string(),
  /** The address the provider gave when it was linked, if it gave one. */
  email: z.string().nullable(),
  createdAt: IsoDate,
  lastUsedAt: IsoDate.nullable(),
});
export type LinkedIdentity = z.infer<typeof LinkedIdentity>;

export const LinkedIdentityList = z.array(LinkedIdentity);
export type LinkedIdentityList = z.infer<typeof LinkedIdentityList>;

export const LinkedIdentityParams = z.object({ identityId: Id });
export type LinkedIdentityParams = z.infer<typeof LinkedIdentityParams>;
