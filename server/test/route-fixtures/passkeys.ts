import { SoftwareAuthenticator } from '../support/software-authenticator.js';
import type { SignedIn } from '../support/test-app.js';
import type { RouteFixture, World } from './types.js';

// The origin of a browser on the test app's own address (light-my-request sends Host: localhost:80).
const ORIGIN = 'http://localhost';

async function data<T>(w: World, what: string, res: Promise<{ statusCode: number; body: string; data: T }>): Promise<T> {
  const r = await res;
  if (r.statusCode >= 300) throw new Error(`${what} failed: ${r.statusCode} ${r.body}`);
  return r.data;
}

/** A passkey added to the account by a software authenticator, with the authenticator. */
async function addPasskey(w: World, u: SignedIn) {
  const key = new SoftwareAuthenticator();
  const options = await data(w, 'passkey options', w.call({ method: 'POST', url: '/api/v1/users/passkeys/registration-options', as: u }));
  const added = await data<{ _id: string }>(
    w,
    'passkey',
    w.call({ method: 'POST', url: '/api/v1/users/passkeys', as: u, payload: { response: key.register(options, ORIGIN) } }),
  );
  return { key, id: added._id };
}

const passkeyRows = (w: World, userId: string) => () => w.t.ctx.db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('id').execute();

export const passkeysFixtures: Record<string, RouteFixture> = {
  'POST /api/v1/users/passkeys/registration-options': {
    access: 'self',
    async valid(w) {
      return { as: await w.user(), status: 200 };
    },
  },
  'POST /api/v1/users/passkeys': {
    access: 'self',
    async valid(w) {
      const u = await w.user();
      const options = await data(w, 'passkey options', w.call({ method: 'POST', url: '/api/v1/users/passkeys/registration-options', as: u }));
      return {
        as: u,
        status: 201,
        json: { response: new SoftwareAuthenticator().register(options, ORIGIN), name: 'Work laptop' },
        readBack: passkeyRows(w, u.id),
      };
    },
  },
  'GET /api/v1/users/passkeys': {
    access: 'self',
    async valid(w) {
      return { as: await w.user(), status: 200 };
    },
  },
  'DELETE /api/v1/users/passkeys/:passkeyId': {
    access: 'owner',
    async valid(w) {
      const u = await w.user();
      const { id } = await addPasskey(w, u);
      return { as: u, status: 200, params: { passkeyId: id }, readBack: passkeyRows(w, u.id) };
    },
  },
  'POST /api/v1/users/passkeys/authentication-options': {
    access: 'public',
    async valid() {
      return { as: null, status: 200 };
    },
  },
  'POST /api/v1/users/login/passkey': {
    access: 'public',
    async valid(w) {
      const { key } = await addPasskey(w, await w.user());
      const options = await data(w, 'passkey sign-in options', w.call({ method: 'POST', url: '/api/v1/users/passkeys/authentication-options' }));
      return { as: null, status: 200, json: { response: key.assert(options, ORIGIN) } };
    },
  },
};
