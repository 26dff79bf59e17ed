import { Secret, TOTP } from 'otpauth';
import type { RouteFixture, World } from './types.js';

const twoFactorRows = (w: World, userId: string) => async () => ({
  row: await w.t.ctx.db.selectFrom('two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst(),
  codes: await w.t.ctx.db.selectFrom('two_factor_recovery_codes').selectAll().where('user_id', '=', userId).orderBy('code_hash').execute(),
});

const codeFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();

/** A fresh account (never a pooled one: the calls below change it) with a secret set up, not yet confirmed. */
async function setUp(w: World) {
  const u = await w.t.signUp();
  const res = await w.call({ method: 'POST', url: '/api/v1/users/2fa/setup', as: u });
  if (res.statusCode !== 200) throw new Error(`2fa setup failed: ${res.statusCode} ${res.body}`);
  return { u, secret: res.data.secret as string };
}

export const twoFactorFixtures: Record<string, RouteFixture> = {
  'POST /api/v1/users/2fa/setup': {
    access: 'self',
    async valid(w) {
      const u = await w.user();
      return { as: u, status: 200, readBack: twoFactorRows(w, u.id) };
    },
  },
  'POST /api/v1/users/2fa/enable': {
    access: 'self',
    async valid(w) {
      const { u, secret } = await setUp(w);
      return { as: u, status: 200, json: { code: codeFor(secret) }, readBack: twoFactorRows(w, u.id) };
    },
  },
  'POST /api/v1/users/2fa/disable': {
    access: 'self',
    async valid(w) {
      const { u, recoveryCodes } = await withTwoFactorOn(w);
      return { as: u, status: 200, json: { password: u.password, code: recoveryCodes[0]! }, readBack: twoFactorRows(w, u.id) };
    },
  },
};

/** A fresh account with two-factor sign-in on, and its recovery codes. */
export async function withTwoFactorOn(w: World) {
  const { u, secret } = await setUp(w);
  const on = await w.call({ method: 'POST', url: '/api/v1/users/2fa/enable', as: u, payload: { code: codeFor(secret) } });
  if (on.statusCode !== 200) throw new Error(`2fa enable failed: ${on.statusCode} ${on.body}`);
  return { u, recoveryCodes: on.data.recoveryCodes as string[] };
}

twoFactorFixtures['POST /api/v1/users/2fa/recovery-codes'] = {
  access: 'self',
  async valid(w) {
    const { u, recoveryCodes } = await withTwoFactorOn(w);
    return { as: u, status: 200, json: { password: u.password, code: recoveryCodes[0]! }, readBack: twoFactorRows(w, u.id) };
  },
};
