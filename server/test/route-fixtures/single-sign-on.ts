import { newId } from '../../src/lib/ids.js';
import { providerSignIn } from '../support/openid-provider.js';
import type { SignedIn } from '../support/test-app.js';
import type { RouteFixture, World } from './types.js';

/** The app's first single sign-on provider: the suites that walk every route start one (see openid-provider.ts). */
function providerOf(w: World) {
  const provider = w.t.ctx.config.oidcProviders[0];
  if (!provider) throw new Error('this suite needs OIDC_PROVIDERS with a provider started by the test');
  return provider;
}

/** A provider account linked to the user, as a finished link would leave it. */
async function linkedIdentity(w: World, u: SignedIn): Promise<string> {
  const id = newId();
  await w.t.ctx.db
    .insertInto('user_identities')
    .values({ id, user_id: u.id, provider: 'campus', subject: `sub-${id}`, email: null, created_at: Date.now(), last_used_at: null })
    .execute();
  return id;
}

const identityRows = (w: World, userId: string) => () =>
  w.t.ctx.db.selectFrom('user_identities').selectAll().where('user_id', '=', userId).orderBy('id').execute();

export const singleSignOnFixtures: Record<string, RouteFixture> = {
  'GET /api/v1/auth/oidc/:name': {
    access: 'public',
    async valid(w) {
      return { as: null, status: 302, params: { name: providerOf(w).name }, query: { returnTo: '/' } };
    },
  },
  'GET /api/v1/auth/oidc/:name/callback': {
    access: 'public',
    // A signed-in account linking the provider: a valid return that makes no account of its own.
    async valid(w) {
      const provider = providerOf(w);
      const u = await w.user();
      const start = await w.call({ method: 'GET', url: `/api/v1/auth/oidc/${provider.name}?link=true&returnTo=/`, as: u });
      const state = start.cookies.find((c) => c.name === 'ssoState')?.value;
      if (start.statusCode !== 302 || !state) throw new Error(`single sign-on start failed: ${start.statusCode} ${start.body}`);
      const returned = await providerSignIn(provider.issuer, start.headers.location as string, `fixture-${newId()}`);
      return {
        as: null,
        status: 302,
        params: { name: provider.name },
        query: Object.fromEntries(returned.searchParams),
        headers: { cookie: `ssoState=${state}` },
      };
    },
  },
  'GET /api/v1/users/identities': {
    access: 'self',
    async valid(w) {
      return { as: await w.user(), status: 200 };
    },
  },
  'DELETE /api/v1/users/identities/:identityId': {
    access: 'owner',
    async valid(w) {
      const u = await w.user();
      const identityId = await linkedIdentity(w, u);
      return { as: u, status: 200, params: { identityId }, readBack: identityRows(w, u.id) };
    },
  },
};
