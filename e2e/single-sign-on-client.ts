/** The site's client at the journeys' OpenID Provider: the server is configured with it (playwright.config.ts). */
export const E2E_SSO_CLIENT = { name: 'campus', label: 'Campus ID', clientId: 'reelhouse-e2e', clientSecret: 'an-e2e-client-secret' };
