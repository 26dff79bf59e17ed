import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { codeFor, withTwoFactor as enabledAccount, wrongCodeFor } from '../../../test/support/two-factor.js';

const API = '/api/v1';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const setup = (as: SignedIn) => t.call({ method: 'POST', url: `${API}/users/2fa/setup`, as });
const enable = (as: SignedIn, code: unknown) => t.call({ method: 'POST', url: `${API}/users/2fa/enable`, as, payload: { code } });
const disable = (as: SignedIn, payload: Record<string, unknown>) => t.call({ method: 'POST', url: `${API}/users/2fa/disable`, as, payload });
const login = (u: SignedIn, extra: Record<string, string> = {}) =>
  t.call({ method: 'POST', url: `${API}/users/login`, headers: { 'x-return-tokens': 'true' }, payload: { email: u.email, password: u.password, ...extra } });
const current = (as: SignedIn) => t.call({ method: 'GET', url: `${API}/users/user/current`, as });

const withTwoFactor = () => enabledAccount(t);

describe('POST /users/2fa/setup', () => {
  it('is refused signed out (401)', async () => {
    expect((await t.call({ method: 'POST', url: `${API}/users/2fa/setup` })).statusCode).toBe(401);
  });

  it('answers a secret, its otpauth URL and a PNG QR code; a second setup replaces the first', async () => {
    const u = await t.signUp();
    const first = await setup(u);
    expect(first.statusCode).toBe(200);
    const { secret, otpauthUrl, qrCode } = first.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toBe(`otpauth://totp/Reelhouse:${u.username}?issuer=Reelhouse&secret=${secret}&algorithm=SHA1&digits=6&period=30`);
    expect(qrCode).toMatch(/^data:image\/png;base64,/);
    expect(Buffer.from(qrCode.split(',')[1], 'base64').subarray(1, 4).toString()).toBe('PNG');
    const second = (await setup(u)).data.secret as string;
    expect(second).not.toBe(secret);
    // Only the latest secret can be confirmed.
    expect((await enable(u, codeFor(secret))).statusCode).toBe(400);
    expect((await enable(u, codeFor(second))).statusCode).toBe(200);
  });

  it('stores the secret sealed, not as the base32 the app gets', async () => {
    const u = await t.signUp();
    const { secret } = (await setup(u)).data;
    const row = await t.ctx.db.selectFrom('two_factor').selectAll().where('user_id', '=', u.id).executeTakeFirstOrThrow();
    expect(row.pending_secret).not.toContain(secret);
    expect(row.pending_secret).toMatch(/^v1\./);
  });

  it('is 409 once two-factor sign-in is on', async () => {
    const { u } = await withTwoFactor();
    const res = await setup(u);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/already on/);
  });
});

describe('POST /users/2fa/enable', () => {
  it('is refused signed out (401)', async () => {
    expect((await t.call({ method: 'POST', url: `${API}/users/2fa/enable`, payload: { code: '123456' } })).statusCode).toBe(401);
  });

  it('refuses bad input and a call before setup (400)', async () => {
    const u = await t.signUp();
    expect((await enable(u, 'abc')).statusCode).toBe(400);
    expect((await enable(u, 123456)).statusCode).toBe(400);
    const early = await enable(u, '123456');
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toMatch(/Set up two-factor authentication first/);
  });

  it('refuses a wrong code with a clear message and leaves it off', async () => {
    const u = await t.signUp();
    const { secret } = (await setup(u)).data;
    const res = await enable(u, wrongCodeFor(secret));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/code is not right/);
    expect((await current(u)).data.twoFactorEnabled).toBe(false);
  });

  it('turns it on with a right code and answers ten distinct recovery codes, stored hashed', async () => {
    const { u, recoveryCodes } = await withTwoFactor();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const c of recoveryCodes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await t.ctx.db.selectFrom('two_factor_recovery_codes').select('code_hash').where('user_id', '=', u.id).execute();
    expect(stored).toHaveLength(10);
    for (const c of recoveryCodes) expect(stored.map((r) => r.code_hash)).not.toContain(c);
    expect((await current(u)).data.twoFactorEnabled).toBe(true);
  });
});

describe('POST /users/login with two-factor sign-in on', () => {
  it('keeps answering as before for an account without it', async () => {
    const u = await t.signUp();
    const res = await login(u);
    expect(res.statusCode).toBe(200);
    expect(res.data.user._id).toBe(u.id);
    expect(res.data.accessToken).toBeTruthy();
    expect(res.data.user.twoFactorEnabled).toBeUndefined();
    expect((await current(u)).data.twoFactorEnabled).toBe(false);
  });

  it('asks for a code after the right password, setting no cookie and opening no session', async () => {
    const { u } = await withTwoFactor();
    const sessions = () => t.ctx.db.selectFrom('sessions').select('id').where('user_id', '=', u.id).execute();
    const before = (await sessions()).length;
    const res = await login(u);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ twoFactorRequired: true });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await sessions()).length).toBe(before);
  });

  it('still refuses a wrong password first (401), code or not', async () => {
    const { u, secret } = await withTwoFactor();
    const res = await login({ ...u, password: 'wrong-password-1' }, { code: codeFor(secret, 1) });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Invalid email or password');
  });

  it('signs in with the next code, and refuses the same code again', async () => {
    const { u, secret } = await withTwoFactor();
    const code = codeFor(secret, 1);
    const ok = await login(u, { code });
    expect(ok.statusCode).toBe(200);
    expect(ok.data.user._id).toBe(u.id);
    expect(ok.cookies.map((c) => c.name).sort()).toEqual(['accessToken', 'refreshToken']);
    const again = await login(u, { code });
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toMatch(/two-factor code is not right, or was used already/);
    // The code that turned it on is taken as well.
    expect((await login(u, { code: codeFor(secret) })).statusCode).toBe(401);
  });

  it('refuses a wrong code (401) with a clear message', async () => {
    const { u, secret } = await withTwoFactor();
    const res = await login(u, { code: wrongCodeFor(secret) });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/two-factor code is not right/);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('takes a recovery code once (any case, with or without the dash)', async () => {
    const { u, recoveryCodes } = await withTwoFactor();
    const typed = recoveryCodes[3]!.toUpperCase().replace('-', ' ');
    expect((await login(u, { recoveryCode: typed })).statusCode).toBe(200);
    const again = await login(u, { recoveryCode: recoveryCodes[3]! });
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toMatch(/recovery code is not right, or was used already/);
    expect((await login(u, { recoveryCode: recoveryCodes[4]! })).statusCode).toBe(200);
  });

  it('stops wrong codes after five in the window (429 with Retry-After), even a right code', async () => {
    const { u, secret } = await withTwoFactor();
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await login(u, { code: wrongCodeFor(secret) })).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const limited = await login(u, { code: codeFor(secret, 1) });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(800);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(900);
    // Another account is not held back by it.
    const other = await withTwoFactor();
    expect((await login(other.u, { code: codeFor(other.secret, 1) })).statusCode).toBe(200);
  });

  it('a right code resets the count of wrong ones', async () => {
    const { u, secret, recoveryCodes } = await withTwoFactor();
    for (let i = 0; i < 4; i++) expect((await login(u, { code: wrongCodeFor(secret) })).statusCode).toBe(401);
    expect((await login(u, { recoveryCode: recoveryCodes[0]! })).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(u, { code: wrongCodeFor(secret) })).statusCode).toBe(401);
    expect((await login(u, { code: codeFor(secret, 1) })).statusCode).toBe(200);
  });
});

describe('POST /users/2fa/disable', () => {
  it('is refused signed out (401)', async () => {
    expect((await t.call({ method: 'POST', url: `${API}/users/2fa/disable`, payload: { password: 'x', code: '123456' } })).statusCode).toBe(401);
  });

  it('is 409 when it is not on', async () => {
    const u = await t.signUp();
    expect((await disable(u, { password: u.password, code: '123456' })).statusCode).toBe(409);
  });

  it('needs both the password and a right code', async () => {
    const { u, secret } = await withTwoFactor();
    expect((await disable(u, { code: codeFor(secret, 1) })).statusCode).toBe(400);
    expect((await disable(u, { password: u.password })).statusCode).toBe(400);
    const wrongPassword = await disable(u, { password: 'wrong-password-1', code: codeFor(secret, 1) });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().message).toBe('Password is incorrect');
    const wrongCode = await disable(u, { password: u.password, code: wrongCodeFor(secret) });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().message).toMatch(/code is not right/);
    expect((await current(u)).data.twoFactorEnabled).toBe(true);
    expect((await disable(u, { password: u.password, code: codeFor(secret, 1) })).statusCode).toBe(200);
    expect((await current(u)).data.twoFactorEnabled).toBe(false);
    // Signing in is a password alone again.
    expect((await login(u)).data.user._id).toBe(u.id);
    expect(await t.ctx.db.selectFrom('two_factor_recovery_codes').select('code_hash').where('user_id', '=', u.id).execute()).toEqual([]);
  });

  it('takes a recovery code instead of a code from the app', async () => {
    const { u, recoveryCodes } = await withTwoFactor();
    expect((await disable(u, { password: u.password, code: recoveryCodes[9]! })).statusCode).toBe(200);
    expect((await current(u)).data.twoFactorEnabled).toBe(false);
  });

  it("acts only on the caller's own account", async () => {
    const { u, secret } = await withTwoFactor();
    const other = await t.signUp();
    // Another user sending this account's code turns nothing off: they have no two-factor sign-in.
    expect((await disable(other, { password: other.password, code: codeFor(secret, 1) })).statusCode).toBe(409);
    expect((await current(u)).data.twoFactorEnabled).toBe(true);
  });
});
