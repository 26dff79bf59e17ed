import { startOpenIdProvider, type OpenIdProvider } from '../server/test/support/openid-provider';
import { E2E_SSO_CLIENT } from './single-sign-on-client';

/** The journeys' OpenID Provider, on the port the server expects it on; anyone may sign in there. */
export function startE2eProvider(siteURL: string): Promise<OpenIdProvider> {
  return startOpenIdProvider({
    clientId: E2E_SSO_CLIENT.clientId,
    clientSecret: E2E_SSO_CLIENT.clientSecret,
    redirectUris: [`${siteURL}/api/v1/auth/oidc/${E2E_SSO_CLIENT.name}/callback`],
    port: Number(process.env.E2E_SSO_PROVIDER_PORT),
    anyAccount: true,
  });
}
