import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { signUpAs } from '../../../test/support/staff.js';
import { codeFor, withTwoFactor, wrongCodeFor } from '../../../test/support/two-factor.js';

const API = '/api/v1';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const renew = (as: SignedIn | undefined, payload: Record<string, unknown>) => t.call({ method: 'POST', url: `${API}/users/2fa/recovery-codes`, as, payload });
const login = (u: SignedIn, extra: Record<string, string>) =>
  t.call({ method: 'POST', url: `${API}/users/login`, payload: { email: u.email, password: u.password, ...extra } });

describe('POST /users/2fa/recovery-codes', () => {
  it('is refused signed out (401)', async () => {
    expect((await renew(undefined, { password: 'x', code: '123456' })).statusCode).toBe(401);
  });

  it('refuses bad input (400)', async () => {
    const { u } = await withTwoFactor(t);
    expect((await renew(u, { code: '123456' })).statusCode).toBe(400);
    expect((await renew(u, { password: u.password })).statusCode).toBe(400);
    expect((await renew(u, { password: u.password, code: '   ' })).statusCode).toBe(400);
    expect((await renew(u, { password: u.password, code: 'x'.repeat(41) })).statusCode).toBe(400);
    expect((await renew(u, { password: 12345678, code: '123456' })).statusCode).toBe(400);
  });

  it('is 400 with a clear message when two-factor sign-in is off', async () => {
    const u = await t.signUp();
    const res = await renew(u, { password: u.password, code: '123456' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Two-factor authentication is not on/);
  });

  it('needs the right password and a right code, and keeps the old codes when refused', async () => {
    const { u, secret, recoveryCodes } = await withTwoFactor(t);
    const wrongPassword = await renew(u, { password: 'wrong-password-1', code: codeFor(secret, 1) });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().message).toBe('Password is incorrect');
    const wrongCode = await renew(u, { password: u.password, code: wrongCodeFor(secret) });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().message).toMatch(/code is not right/);
    expect((await login(u, { recoveryCode: recoveryCodes[0]! })).statusCode).toBe(200);
  });

  it('answers ten new codes for the owner; the old ones, used or not, stop working', async () => {
    const { u, secret, recoveryCodes } = await withTwoFactor(t);
    expect((await login(u, { recoveryCode: recoveryCodes[0]! })).statusCode).toBe(200);
    const res = await renew(u, { password: u.password, code: codeFor(secret, 1) });
    expect(res.statusCode).toBe(200);
    const fresh = res.data.recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(new Set(fresh).size).toBe(10);
    for (const c of fresh) expect(recoveryCodes).not.toContain(c);
    const stored = await t.ctx.db.selectFrom('two_factor_recovery_codes').select(['code_hash', 'used_at']).where('user_id', '=', u.id).execute();
    expect(stored).toHaveLength(10);
    expect(stored.every((r) => r.used_at === null)).toBe(true);
    const old = await login(u, { recoveryCode: recoveryCodes[1]! });
    expect(old.statusCode).toBe(401);
    expect(old.json().message).toMatch(/recovery code is not right/);
    expect((await login(u, { recoveryCode: fresh[0]! })).statusCode).toBe(200);
    // Two-factor sign-in stays on with the same app.
    expect((await t.call({ method: 'GET', url: `${API}/users/user/current`, as: u })).data.twoFactorEnabled).toBe(true);
  });

  it('takes a recovery code as the proof, spending it', async () => {
    const { u, recoveryCodes } = await withTwoFactor(t);
    const res = await renew(u, { password: u.password, code: recoveryCodes[5]! });
    expect(res.statusCode).toBe(200);
    expect((await renew(u, { password: u.password, code: res.data.recoveryCodes[0] })).statusCode).toBe(200);
  });

  it('acts only on the caller: another user, or a moderator or admin, gets their own answer (400, not on)', async () => {
    const { u, secret, recoveryCodes } = await withTwoFactor(t);
    for (const other of [await t.signUp(), await signUpAs(t, 'moderator'), await signUpAs(t, 'admin')]) {
      const res = await renew(other, { password: other.password, code: codeFor(secret, 1) });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/not on/);
    }
    expect((await login(u, { recoveryCode: recoveryCodes[2]! })).statusCode).toBe(200);
  });

  it('counts wrong codes with the other two-factor checks: after five the account waits (429)', async () => {
    const { u, secret } = await withTwoFactor(t);
    for (let i = 0; i < 5; i++) expect((await renew(u, { password: u.password, code: wrongCodeFor(secret) })).statusCode).toBe(400);
    const limited = await renew(u, { password: u.password, code: codeFor(secret, 1) });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
