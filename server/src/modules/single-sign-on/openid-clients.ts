import * as oidc from 'openid-client';
import { badGateway, badRequest, notFound } from '../../http/errors.js';
import type { OidcProviderSetting } from '../../oidc-providers-setting.js';

/** Who the provider says signed in, from its verified ID token. */
export interface ProviderClaims {
  /** The `sub` claim: stable for one person at one provider. */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  preferredUsername: string | null;
}

/** What a sign-in keeps between the redirect to the provider and its return. */
export interface FlowSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** How long a provider may take to answer discovery or the token request. */
const PROVIDER_TIMEOUT_SECONDS = 10;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The OpenID Connect providers of OIDC_PROVIDERS, through a certified relying-party library
 * (openid-client): discovery, PKCE (S256), state and nonce, the ID token's signature and claims.
 * A provider's metadata is fetched on first use and kept; a failed fetch is tried again next time.
 */
export class OpenIdClients {
  private readonly configurations = new Map<string, Promise<oidc.Configuration>>();

  constructor(private readonly providers: readonly OidcProviderSetting[]) {}

  /** The provider of that name, or 404: a name in a URL that the operator never set up. */
  provider(name: string): OidcProviderSetting {
    const found = this.providers.find((p) => p.name === name);
    if (!found) throw notFound('Sign-in provider');
    return found;
  }

  labelOf(name: string): string {
    return this.providers.find((p) => p.name === name)?.label ?? name;
  }

  static newSecrets(): FlowSecrets {
    return { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
  }

  /** Where to send the browser: the provider's authorization endpoint with this flow's challenge. */
  async authorizationUrl(provider: OidcProviderSetting, redirectUri: string, secrets: FlowSecrets): Promise<string> {
    const config = await this.configuration(provider);
    return oidc
      .buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        code_challenge: await oidc.calculatePKCECodeChallenge(secrets.codeVerifier),
        code_challenge_method: 'S256',
        state: secrets.state,
        nonce: secrets.nonce,
      })
      .toString();
  }

  /**
   * Checks the provider's answer (the callback's full URL) against the flow's state, trades the
   * code for tokens with the PKCE verifier, and verifies the ID token and its nonce.
   */
  async finish(provider: OidcProviderSetting, callbackUrl: URL, redirectUri: string, secrets: FlowSecrets): Promise<ProviderClaims> {
    const config = await this.configuration(provider);
    // The library compares the redirect_uri it sends with the one of the authorization request:
    // build the URL it checks from the registered callback, with the provider's parameters.
    const current = new URL(redirectUri);
    current.search = callbackUrl.search;
    let tokens;
    try {
      tokens = await oidc.authorizationCodeGrant(config, current, {
        expectedState: secrets.state,
        expectedNonce: secrets.nonce,
        pkceCodeVerifier: secrets.codeVerifier,
        idTokenExpected: true,
      });
    } catch (err) {
      throw this.explain(provider, err);
    }
    const idToken = tokens.claims();
    if (!idToken) throw badRequest(`${provider.label} did not say who signed in (no ID token)`);
    // Claims asked for by scope (email, profile) may come only from the UserInfo endpoint (OIDC Core 5.4).
    let info: Record<string, unknown> = {};
    if (config.serverMetadata().userinfo_endpoint) {
      try {
        info = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
      } catch (err) {
        throw this.explain(provider, err);
      }
    }
    const claim = (name: string): unknown => info[name] ?? idToken[name];
    const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
    return {
      subject: idToken.sub,
      email: text(claim('email'))?.toLowerCase() ?? null,
      emailVerified: claim('email_verified') === true,
      name: text(claim('name')),
      preferredUsername: text(claim('preferred_username')),
    };
  }

  private configuration(provider: OidcProviderSetting): Promise<oidc.Configuration> {
    let pending = this.configurations.get(provider.name);
    if (!pending) {
      const insecure = new URL(provider.issuer).protocol === 'http:' && LOOPBACK.has(new URL(provider.issuer).hostname);
      pending = oidc.discovery(new URL(provider.issuer), provider.clientId, provider.clientSecret, undefined, {
        execute: insecure ? [oidc.allowInsecureRequests] : [],
        timeout: PROVIDER_TIMEOUT_SECONDS,
      });
      this.configurations.set(provider.name, pending);
      pending.catch(() => this.configurations.delete(provider.name));
    }
    return pending.catch(() => {
      throw badGateway(`${provider.label} cannot be reached just now: try again in a moment`);
    });
  }

  /** A failed code exchange as a person reads it: refused by the provider, failed checks, or no answer. */
  private explain(provider: OidcProviderSetting, err: unknown): Error {
    if (err instanceof oidc.AuthorizationResponseError) {
      const said = err.error_description ?? err.error;
      return badRequest(`${provider.label} did not sign you in${said ? `: ${said}` : ''}`);
    }
    if (err instanceof oidc.ResponseBodyError) {
      return badRequest(`${provider.label} refused this sign-in (${err.error}): start again`);
    }
    const code = (err as { code?: unknown })?.code;
    if (typeof code === 'string' && code.startsWith('OAUTH_')) {
      return badRequest(`The answer from ${provider.label} did not pass its checks: start again`);
    }
    return badGateway(`${provider.label} cannot be reached just now: try again in a moment`);
  }
}
