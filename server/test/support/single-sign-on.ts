import type { DestinationStream } from 'pino';
import { startOpenIdProvider, type OpenIdProvider, type ProviderAccount } from './openid-provider.js';
import { createTestApp, type TestApp, type TestResponse } from './test-app.js';

/** The site's address in these tests: the callback the provider knows is under it. */
export const SSO_SITE = 'http://sso-site.test';
export const PROVIDER = 'campus';
export const PROVIDER_LABEL = 'Campus ID';
const CLIENT = { clientId: 'reelhouse-test', clientSecret: 'a-client-secret-for-tests' };

export const callbackPath = (name = PROVIDER) => `/api/v1/auth/oidc/${name}/callback`;

/** A site with a single sign-on provider (a real OpenID Provider on loopback), and calls to go through it. */
export async function ssoSite(
  opts: {
    env?: Record<string, string>;
    accounts?: Record<string, ProviderAccount>;
    providerIssuer?: string;
    runJobs?: boolean;
    logTo?: DestinationStream;
  } = {},
) {
  const provider = await startOpenIdProvider({ ...CLIENT, redirectUris: [`${SSO_SITE}${callbackPath()}`], accounts: opts.accounts });
  const providers = [{ name: PROVIDER, label: PROVIDER_LABEL, issuer: opts.providerIssuer ?? provider.issuer, ...CLIENT }];
  // Jobs (the mailed links) run only when asked for.
  const t = await createTestApp({
    env: { PUBLIC_URL: SSO_SITE, OIDC_PROVIDERS: JSON.stringify(providers), ...opts.env },
    serveSourceAsIs: !opts.runJobs,
    logTo: opts.logTo,
  });
  return { t, provider, ...ssoCalls(t, provider) };
}

export function ssoCalls(t: TestApp, provider: OpenIdProvider) {
  /** GET /auth/oidc/{name}: the provider's URL and the state cookie, or the refusal. */
  async function start(query: Record<string, string> = {}, headers: Record<string, string> = {}, name = PROVIDER) {
    const res = await t.call({ method: 'GET', url: `/api/v1/auth/oidc/${name}`, query, headers });
    const state = res.cookies.find((c) => c.name === 'ssoState')?.value;
    return { res, location: res.headers.location as string | undefined, state };
  }

  /** The provider's return, as the browser that holds `state` in its cookie delivers it. */
  async function callback(returned: URL, state: string | undefined, headers: Record<string, string> = {}): Promise<TestResponse> {
    return t.call({
      method: 'GET',
      url: `${returned.pathname}${returned.search}`,
      headers: { ...(state ? { cookie: `ssoState=${state}` } : {}), ...headers },
    });
  }

  /** Starts, signs in at the provider as `accountId`, and comes back; the callback's answer and the session's access token. */
  async function signInAs(accountId: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) {
    const started = await start(query, headers);
    if (started.res.statusCode !== 302) throw new Error(`start failed: ${started.res.statusCode} ${started.res.body}`);
    const returned = await provider.signIn(started.location!, accountId);
    const res = await callback(returned, started.state, headers);
    const accessToken = res.cookies.find((c) => c.name === 'accessToken')?.value;
    return { res, accessToken, returned, state: started.state };
  }

  const usersByEmail = (email: string) => t.ctx.db.selectFrom('users').selectAll().where('email', '=', email).execute();
  const identities = () => t.ctx.db.selectFrom('user_identities').selectAll().execute();

  return { start, callback, signInAs, usersByEmail, identities };
}

export type { OpenIdProvider, ProviderAccount };
