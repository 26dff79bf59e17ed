import { Secret, TOTP } from 'otpauth';
import type { SignedIn, TestApp } from './test-app.js';

const API = '/api/v1';

/** The code an authenticator app shows for the secret, now or some steps later. */
export const codeFor = (secret: string, stepsAhead = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });

/** A six-digit code that is none of the ones the server accepts now. */
export const wrongCodeFor = (secret: string) => {
  const accepted = new Set([-1, 0, 1].map((n) => codeFor(secret, n)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!accepted.has(code)) return code;
  }
};

/** A fresh account with two-factor sign-in on: its secret and recovery codes (the current step is used up). */
export async function withTwoFactor(t: TestApp): Promise<{ u: SignedIn; secret: string; recoveryCodes: string[] }> {
  const u = await t.signUp();
  const setup = await t.call({ method: 'POST', url: `${API}/users/2fa/setup`, as: u });
  const secret = setup.data.secret as string;
  const on = await t.call({ method: 'POST', url: `${API}/users/2fa/enable`, as: u, payload: { code: codeFor(secret) } });
  if (on.statusCode !== 200) throw new Error(`2fa enable failed: ${on.statusCode} ${on.body}`);
  return { u, secret, recoveryCodes: on.data.recoveryCodes as string[] };
}
