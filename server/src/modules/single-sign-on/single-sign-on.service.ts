import { createHash, timingSafeEqual } from 'node:crypto';
import type { Language, LinkedIdentity, SignupMode } from '@reelhouse/contract';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { newId, toIso } from '../../lib/ids.js';
import type { UserRow } from '../users/users.repository.js';
import type { IdentitiesRepository } from './identities.repository.js';
import { type FlowSecrets, OpenIdClients } from './openid-clients.js';
import { profileFrom, type ProviderProfile } from './provider-profile.js';
import type { SignInFlowsRepository } from './sign-in-flows.repository.js';

/** How long a person may spend at the provider before the sign-in has to start again. */
const FLOW_TTL_MS = 10 * 60_000;

export interface SingleSignOnDeps {
  clients: OpenIdClients;
  flows: SignInFlowsRepository;
  identities: IdentitiesRepository;
  accounts: {
    registerFromProvider(profile: ProviderProfile, opts: { needsApproval?: boolean; linkBase?: string; language?: Language | null }): Promise<UserRow>;
    /** The account, refused (banned, waiting for approval...) as any sign-in is. */
    accountForProviderSignIn(userId: string): Promise<UserRow>;
  };
  signupMode(): Promise<SignupMode>;
}

/** How a provider's return ended: someone signed in, a provider linked, or a refusal to show. */
export type SignInOutcome =
  | { kind: 'signed-in'; user: UserRow; returnTo: string }
  | { kind: 'linked'; returnTo: string }
  | { kind: 'failed'; error: AppError; returnTo: string | null; linking: boolean };

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

/** Same length and same bytes, compared in constant time. */
function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Single sign-on with the operator's OpenID Connect providers: the redirect there, and the return,
 * which signs in the account linked to the provider account, makes one on first sign-in, or links
 * the provider to the signed-in account that asked.
 */
export class SingleSignOnService {
  constructor(private readonly deps: SingleSignOnDeps) {}

  /** The provider's sign-in page for a new flow, and the state the browser keeps in a cookie to prove it started it. */
  async start(name: string, opts: { siteOrigin: string; returnTo?: string; linkUserId?: string | null }): Promise<{ redirectTo: string; state: string }> {
    const provider = this.deps.clients.provider(name);
    const secrets = OpenIdClients.newSecrets();
    const redirectUri = callbackUrl(opts.siteOrigin, name);
    // Asked first: a provider that is down fails here, before any row is written.
    const redirectTo = await this.deps.clients.authorizationUrl(provider, redirectUri, secrets);
    const now = Date.now();
    await this.deps.flows.insert(
      {
        state_hash: hashState(secrets.state),
        provider: name,
        code_verifier: secrets.codeVerifier,
        nonce: secrets.nonce,
        redirect_uri: redirectUri,
        return_to: opts.returnTo ?? '/',
        link_user_id: opts.linkUserId ?? null,
        expires_at: now + FLOW_TTL_MS,
      },
      now,
    );
    return { redirectTo, state: secrets.state };
  }

  /**
   * The provider sent the browser back. The state in the URL must be the one this browser's cookie
   * holds and a flow not yet used; then the code is traded and the ID token checked.
   */
  async finish(
    name: string,
    /** language: the request's, for the mail that checks a new account's address. */
    opts: { callbackUrl: URL; state?: string; cookieState?: string; siteOrigin: string; language?: Language | null },
  ): Promise<SignInOutcome> {
    let flow;
    try {
      this.deps.clients.provider(name);
      if (!opts.state) throw badRequest('The sign-in answer has no state: start again');
      if (!opts.cookieState || !sameText(opts.state, opts.cookieState)) {
        throw badRequest('This sign-in was not started in this browser, or it has expired: start again');
      }
      flow = await this.deps.flows.take(hashState(opts.state), Date.now());
      if (!flow || flow.provider !== name) throw badRequest('This sign-in has expired or was already used: start again');
    } catch (err) {
      return failure(err, null, false);
    }
    const linking = flow.link_user_id !== null;
    try {
      const provider = this.deps.clients.provider(name);
      const secrets: FlowSecrets = { state: opts.state!, nonce: flow.nonce, codeVerifier: flow.code_verifier };
      const claims = await this.deps.clients.finish(provider, opts.callbackUrl, flow.redirect_uri, secrets);
      const now = Date.now();
      const known = await this.deps.identities.find(name, claims.subject);
      if (flow.link_user_id) {
        if (known && known.user_id !== flow.link_user_id) throw conflict(`This ${provider.label} account is already linked to another account`);
        if (!known) {
          await this.deps.identities.insert({
            id: newId(),
            user_id: flow.link_user_id,
            provider: name,
            subject: claims.subject,
            email: claims.email,
            created_at: now,
            last_used_at: null,
          });
        }
        return { kind: 'linked', returnTo: flow.return_to };
      }
      if (known) {
        const user = await this.deps.accounts.accountForProviderSignIn(known.user_id);
        await this.deps.identities.touch(known.id, now);
        return { kind: 'signed-in', user, returnTo: flow.return_to };
      }
      const mode = await this.deps.signupMode();
      if (mode === 'closed') throw forbidden(`Sign-ups are closed on this site: only accounts already linked to ${provider.label} can sign in`);
      const profile = profileFrom(claims, provider.label);
      let created: UserRow;
      try {
        created = await this.deps.accounts.registerFromProvider(profile, {
          needsApproval: mode === 'approval',
          linkBase: opts.siteOrigin,
          language: opts.language ?? null,
        });
      } catch (err) {
        // Linking by address alone would hand an account to whoever controls that address at the provider.
        if (err instanceof AppError && err.message === 'email exists') {
          throw conflict(`An account with this email address already exists: sign in to it, then link ${provider.label} from Sign-in and security`);
        }
        throw err;
      }
      if (
        !(await this.deps.identities.insert({
          id: newId(),
          user_id: created.id,
          provider: name,
          subject: claims.subject,
          email: claims.email,
          created_at: now,
          last_used_at: now,
        }))
      ) {
        throw conflict('This sign-in was finished twice at once: start again');
      }
      const user = await this.deps.accounts.accountForProviderSignIn(created.id);
      return { kind: 'signed-in', user, returnTo: flow.return_to };
    } catch (err) {
      return failure(err, flow.return_to, linking);
    }
  }

  async list(userId: string): Promise<LinkedIdentity[]> {
    const rows = await this.deps.identities.listByUser(userId);
    return rows.map((r) => ({
      _id: r.id,
      provider: r.provider,
      label: this.deps.clients.labelOf(r.provider),
      email: r.email,
      createdAt: toIso(r.created_at),
      lastUsedAt: r.last_used_at === null ? null : toIso(r.last_used_at),
    }));
  }

  /** Unlinks a provider account, unless it is the account's only way in. */
  async unlink(userId: string, identityId: string): Promise<void> {
    const rows = await this.deps.identities.listByUser(userId);
    if (!rows.some((r) => r.id === identityId)) throw notFound('Linked account');
    const others = await this.deps.identities.otherWaysIn(userId);
    if (rows.length === 1 && !others.hasPassword && others.passkeys === 0) {
      throw conflict('This is the only way into your account: set a password (Forgot password mails a link) or add a passkey first');
    }
    if (!(await this.deps.identities.delete(userId, identityId))) throw notFound('Linked account');
  }
}

export function callbackUrl(siteOrigin: string, name: string): string {
  return `${siteOrigin}/api/v1/auth/oidc/${name}/callback`;
}

function failure(err: unknown, returnTo: string | null, linking: boolean): SignInOutcome {
  if (!(err instanceof AppError)) throw err;
  return { kind: 'failed', error: err, returnTo, linking };
}
