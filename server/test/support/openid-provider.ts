import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/** What the provider says of one of its people when they sign in. */
export interface ProviderAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
}

export interface OpenIdProvider {
  issuer: string;
  port: number;
  /** Adds or changes a person the provider knows, by their `sub`. */
  accounts: Map<string, ProviderAccount>;
  /**
   * Plays the browser at the provider: follows the redirects from its authorization URL, signs in
   * as `accountId` on its own login form, and returns the URL it sends the browser back to.
   */
  signIn(authorizationUrl: string, accountId: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID Provider (oidc-provider, a certified implementation) on loopback, with one
 * confidential client and its own sign-in form, on which any password is accepted.
 */
export async function startOpenIdProvider(opts: {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  accounts?: Record<string, ProviderAccount>;
  /** Anyone may sign in: a `sub` it does not know gets a confirmed address at example.org. */
  anyAccount?: boolean;
  port?: number;
}): Promise<OpenIdProvider> {
  const accounts = new Map(Object.entries(opts.accounts ?? {}));
  const { createServer } = await import('node:http');
  // The issuer must be known before the provider is made: reserve the port first.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const issuer = `http://127.0.0.1:${port}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
        redirect_uris: opts.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub) ?? (opts.anyAccount ? { email: `${sub}@example.org`, email_verified: true } : undefined);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...account }) };
    },
    // A first-party provider: people are not asked to consent to each scope.
    async loadExistingGrant(ctx) {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['a-test-provider-cookie-key'] },
    // Its own signing key, made for this run.
    jwks: {
      keys: [{ ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'test-key', alg: 'RS256', use: 'sig' }],
    },
  };
  const provider = new Provider(issuer, configuration);
  const server = provider.listen(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });

  return {
    issuer,
    port,
    accounts,
    signIn: (authorizationUrl, accountId) => providerSignIn(issuer, authorizationUrl, accountId),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/**
 * Plays the browser at a provider started here: follows the redirects from its authorization URL,
 * signs in as `accountId` on its own login form, and returns the URL it sends the browser back to.
 */
export async function providerSignIn(issuer: string, authorizationUrl: string, accountId: string): Promise<URL> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1));
    }
  };
  let url = new URL(authorizationUrl);
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 20; hop++) {
    if (url.origin !== issuer) return url;
    const res = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: cookieHeader(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body,
    });
    keep(res);
    body = undefined;
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url);
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action || !html.includes('name="login"')) throw new Error(`the provider answered ${res.status}: ${html.slice(0, 300)}`);
    url = new URL(action, url);
    body = new URLSearchParams({ prompt: 'login', login: accountId, password: 'any password' });
  }
  throw new Error('the provider redirected too many times');
}
