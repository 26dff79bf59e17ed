import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { signUpAs } from '../../../test/support/staff.js';
import { LIVE_SESSION_TTL_MS } from './live-sessions.js';
import { SessionsRepository } from './sessions.repository.js';

// A session found alive is taken as alive for a second without asking the database again. Whatever
// ends or changes a session on this process must still take effect on the very next request: each
// case below uses the token first (so it is remembered), ends it, and tries it again at once.
const API = '/api/v1';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const current = (headers: Record<string, string>) => t.call({ method: 'GET', url: `${API}/users/user/current`, headers });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const as = (u: SignedIn) => bearer(u.accessToken);

async function secondDevice(u: SignedIn) {
  const login = await t.call({
    method: 'POST',
    url: `${API}/users/login`,
    headers: { 'x-return-tokens': 'true' },
    payload: { email: u.email, password: u.password },
  });
  return { access: login.data.accessToken as string, refresh: login.data.refreshToken as string };
}

describe('a remembered session', () => {
  it('costs one session lookup for a burst of requests', async () => {
    const u = await t.signUp();
    const lookups = vi.spyOn(SessionsRepository.prototype, 'findLiveUser');
    try {
      const answers = await Promise.all(Array.from({ length: 5 }, () => current(as(u))));
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
      for (let i = 0; i < 5; i++) expect((await current(as(u))).statusCode).toBe(200);
      // The burst's first requests ask together before any answer is back; after that, none ask.
      expect(lookups.mock.calls.length).toBeLessThanOrEqual(5);
      const after = lookups.mock.calls.length;
      await current(as(u));
      expect(lookups.mock.calls.length).toBe(after);
    } finally {
      lookups.mockRestore();
    }
  });

  it('ends at once on logout', async () => {
    const u = await t.signUp();
    expect((await current(as(u))).statusCode).toBe(200);
    expect((await t.call({ method: 'POST', url: `${API}/users/logout`, headers: as(u) })).statusCode).toBe(200);
    expect((await current(as(u))).statusCode).toBe(401);
  });

  it("ends at once on the account's other devices when the password changes", async () => {
    const u = await t.signUp();
    const other = await secondDevice(u);
    expect((await current(bearer(other.access))).statusCode).toBe(200);
    const changed = await t.call({
      method: 'PATCH',
      url: `${API}/users/change-password`,
      headers: as(u),
      payload: { oldPassword: u.password, newPassword: 'a-new-password-1' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await current(bearer(other.access))).statusCode).toBe(401);
    expect((await current(as(u))).statusCode).toBe(200);
  });

  it('ends at once when a used refresh token is presented again (it was stolen)', async () => {
    const u = await t.signUp();
    const device = await secondDevice(u);
    expect((await current(bearer(device.access))).statusCode).toBe(200);
    const first = await t.call({
      method: 'POST',
      url: `${API}/users/refresh-token`,
      headers: { 'x-return-tokens': 'true' },
      payload: { refreshToken: device.refresh },
    });
    expect(first.statusCode).toBe(200);
    const rotated = first.data.accessToken as string;
    expect((await current(bearer(rotated))).statusCode).toBe(200);
    // Well past the grace window for two tabs refreshing at once.
    await t.ctx.db
      .updateTable('refresh_tokens')
      .set({ used_at: Date.now() - 60_000 })
      .where('used_at', 'is not', null)
      .where('session_id', 'in', t.ctx.db.selectFrom('sessions').select('id').where('user_id', '=', u.id))
      .execute();
    expect((await t.call({ method: 'POST', url: `${API}/users/refresh-token`, payload: { refreshToken: device.refresh } })).statusCode).toBe(401);
    expect((await current(bearer(rotated))).statusCode).toBe(401);
  });

  it('ends at once when the account is banned', async () => {
    const admin = await signUpAs(t, 'admin');
    const u = await t.signUp();
    expect((await current(as(u))).statusCode).toBe(200);
    const ban = await t.call({ method: 'PATCH', url: `${API}/admin/users/${u.id}`, headers: as(admin), payload: { banned: true, banReason: 'Spam' } });
    expect(ban.statusCode).toBe(200);
    expect((await current(as(u))).statusCode).toBe(401);
  });

  it('ends at once when the account is deleted', async () => {
    const u = await t.signUp();
    expect((await current(as(u))).statusCode).toBe(200);
    expect((await t.call({ method: 'DELETE', url: `${API}/users/delete-account`, headers: as(u) })).statusCode).toBe(200);
    expect((await current(as(u))).statusCode).toBe(401);
  });

  it('carries a new role at once: a moderator made a user again is refused staff pages on the next request', async () => {
    const admin = await signUpAs(t, 'admin');
    const mod = await signUpAs(t, 'moderator');
    expect((await t.call({ method: 'GET', url: `${API}/admin/reports`, headers: as(mod) })).statusCode).toBe(200);
    const demoted = await t.call({ method: 'PATCH', url: `${API}/admin/users/${mod.id}`, headers: as(admin), payload: { role: 'user' } });
    expect(demoted.statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: `${API}/admin/reports`, headers: as(mod) })).statusCode).toBe(403);
  });

  it('carries a new username at once', async () => {
    const admin = await signUpAs(t, 'admin');
    const renamedTo = `${admin.username}r`;
    expect((await current(as(admin))).statusCode).toBe(200);
    const renamed = await t.call({ method: 'PATCH', url: `${API}/users/update-account`, headers: as(admin), payload: { username: renamedTo } });
    expect(renamed.statusCode).toBe(200);
    // The audit log names its actor by the username the session carries.
    expect(
      (await t.call({ method: 'PATCH', url: `${API}/admin/settings`, headers: as(admin), payload: { description: 'Renamed admin was here' } })).statusCode,
    ).toBe(200);
    const log = await t.call({ method: 'GET', url: `${API}/admin/audit-log`, headers: as(admin) });
    expect(log.statusCode).toBe(200);
    expect(JSON.stringify(log.data)).toContain(renamedTo);
  });

  it('ended where this process cannot see it (another API process, the command line) is refused within the TTL', async () => {
    const u = await t.signUp();
    expect((await current(as(u))).statusCode).toBe(200);
    await t.ctx.db.updateTable('sessions').set({ revoked_at: Date.now() }).where('user_id', '=', u.id).execute();
    await new Promise((resolve) => setTimeout(resolve, LIVE_SESSION_TTL_MS + 50));
    expect((await current(as(u))).statusCode).toBe(401);
  });
});
