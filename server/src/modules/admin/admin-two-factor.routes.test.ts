import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_ID } from '../../../test/support/seed.js';
import { staffCallers } from '../../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { codeFor, withTwoFactor } from '../../../test/support/two-factor.js';

const API = '/api/v1';
let t: TestApp;
let staff: Awaited<ReturnType<typeof staffCallers>>;
beforeAll(async () => {
  t = await createTestApp();
  staff = await staffCallers(t);
});
afterAll(async () => {
  await t?.close();
});

const turnOff = (as: SignedIn | undefined, id: string) => t.call({ method: 'DELETE', url: `${API}/admin/users/${id}/2fa`, as });
const login = (u: SignedIn, extra: Record<string, string> = {}) =>
  t.call({ method: 'POST', url: `${API}/users/login`, payload: { email: u.email, password: u.password, ...extra } });
const twoFactorOn = async (u: SignedIn) => (await t.call({ method: 'GET', url: `${API}/users/user/current`, as: u })).data?.twoFactorEnabled;
const auditOf = (id: string) => t.ctx.db.selectFrom('audit_log').selectAll().where('target_id', '=', id).where('action', '=', 'user.two-factor-off').execute();

describe('DELETE /admin/users/:id/2fa', () => {
  it('is for admins only: signed out 401, users and moderators 403, and nothing changes', async () => {
    const { u, secret } = await withTwoFactor(t);
    expect((await turnOff(undefined, u.id)).statusCode).toBe(401);
    expect((await turnOff(staff.user, u.id)).statusCode).toBe(403);
    const mod = await turnOff(staff.moderator, u.id);
    expect(mod.statusCode).toBe(403);
    expect(mod.message).toBe('Only admins may do that');
    // The account itself may not use it either: its own goes off with the password and a code.
    expect((await turnOff(u, u.id)).statusCode).toBe(403);
    expect(await twoFactorOn(u)).toBe(true);
    expect((await login(u)).data).toEqual({ twoFactorRequired: true });
    expect((await login(u, { code: codeFor(secret, 1) })).statusCode).toBe(200);
    expect(await auditOf(u.id)).toEqual([]);
  });

  it('is 404 for a missing account and 400 for a malformed id', async () => {
    const missing = await turnOff(staff.admin, MISSING_ID);
    expect(missing.statusCode).toBe(404);
    expect(missing.message).toMatch(/User/);
    expect((await turnOff(staff.admin, 'not an id')).statusCode).toBe(400);
  });

  it('is 400 with a clear message when the account does not have it on', async () => {
    const u = await t.signUp();
    // A secret set up but never confirmed is not "on" either.
    await t.call({ method: 'POST', url: `${API}/users/2fa/setup`, as: u });
    const res = await turnOff(staff.admin, u.id);
    expect(res.statusCode).toBe(400);
    expect(res.message).toBe('Two-factor authentication is not on for this account');
    expect(await auditOf(u.id)).toEqual([]);
  });

  it("refuses an admin's own (400): that goes through their own settings", async () => {
    const { u: admin } = await withTwoFactor(t);
    await t.ctx.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
    t.services.sessions.accountChanged(admin.id);
    const res = await turnOff(admin, admin.id);
    expect(res.statusCode).toBe(400);
    expect(res.message).toMatch(/Sign-in and security/);
  });

  it('turns it off, signs the account out everywhere and writes the audit log; the password alone signs in again', async () => {
    const { u } = await withTwoFactor(t);
    const listed = await t.call({ method: 'GET', url: `${API}/admin/users?query=${u.username}`, as: staff.admin });
    expect(listed.data.users[0]).toMatchObject({ _id: u.id, twoFactorEnabled: true });
    const res = await turnOff(staff.admin, u.id);
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ _id: u.id, twoFactorEnabled: false });
    expect(res.message).toMatch(/signed out everywhere/);
    // The session it had is over.
    expect((await t.call({ method: 'GET', url: `${API}/users/user/current`, as: u })).statusCode).toBe(401);
    const rows = await t.ctx.db.selectFrom('two_factor').selectAll().where('user_id', '=', u.id).execute();
    expect(rows).toEqual([]);
    expect(await t.ctx.db.selectFrom('two_factor_recovery_codes').selectAll().where('user_id', '=', u.id).execute()).toEqual([]);
    const [entry, ...more] = await auditOf(u.id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ actor_id: staff.admin.id, actor_username: staff.admin.username, target_type: 'user' });
    const again = await login(u);
    expect(again.statusCode).toBe(200);
    expect(again.data.user._id).toBe(u.id);
    // A second call finds it off.
    expect((await turnOff(staff.admin, u.id)).statusCode).toBe(400);
  });

  it("leaves other accounts' two-factor sign-in and sessions alone", async () => {
    const a = await withTwoFactor(t);
    const b = await withTwoFactor(t);
    expect((await turnOff(staff.admin, a.u.id)).statusCode).toBe(200);
    expect(await twoFactorOn(b.u)).toBe(true);
    expect((await login(b.u)).data).toEqual({ twoFactorRequired: true });
  });
});
