import { expect } from 'vitest';
import { SoftwareAuthenticator } from './software-authenticator.js';
import type { SignedIn, TestApp } from './test-app.js';

const API = '/api/v1';
/** What a browser on the test app's own address (Host: localhost:80) names as its origin. */
export const TEST_ORIGIN = 'http://localhost';
const LINUX_CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

/** The passkey routes' calls over one test app, and accounts with passkeys made by a software authenticator. */
export function passkeyCalls(t: TestApp) {
  const registrationOptions = (u: SignedIn) => t.call({ method: 'POST', url: `${API}/users/passkeys/registration-options`, as: u });
  const authenticationOptions = () => t.call({ method: 'POST', url: `${API}/users/passkeys/authentication-options` });
  return {
    registrationOptions,
    authenticationOptions,
    list: (u: SignedIn) => t.call({ method: 'GET', url: `${API}/users/passkeys`, as: u }),
    signIn: (response: unknown, headers: Record<string, string> = {}) =>
      t.call({ method: 'POST', url: `${API}/users/login/passkey`, payload: { response }, headers }),
    passkeyRows: (userId: string) => t.ctx.db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).execute(),

    /** A fresh account with a passkey added from Chrome on Linux. */
    async withPasskey() {
      const u = await t.signUp();
      const key = new SoftwareAuthenticator();
      const options = await registrationOptions(u);
      expect(options.statusCode).toBe(200);
      const added = await t.call({
        method: 'POST',
        url: `${API}/users/passkeys`,
        as: u,
        headers: { 'user-agent': LINUX_CHROME },
        payload: { response: key.register(options.data, TEST_ORIGIN) },
      });
      expect(added.statusCode).toBe(201);
      return { u, key, passkey: added.data as { _id: string; name: string } };
    },

    /** The key's answer to fresh sign-in options. */
    async assertion(key: SoftwareAuthenticator, origin = TEST_ORIGIN, opts: { counter?: number } = {}) {
      const options = await authenticationOptions();
      expect(options.statusCode).toBe(200);
      return key.assert(options.data, origin, opts);
    },
  };
}
