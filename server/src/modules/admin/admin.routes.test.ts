import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_ID, seedVideo } from '../../../test/support/seed.js';
import { staffCallers } from '../../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

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

const patchUser = (as: SignedIn | undefined, id: string, payload: object) => t.call({ method: 'PATCH', url: `${API}/admin/users/${id}`, as, payload });

describe('admin routes refuse everyone but admins', () => {
  it.each([
    ['GET', '/admin/users'],
    ['GET', '/admin/stats'],
    ['PATCH', `/admin/users/${MISSING_ID}`],
  ])('%s %s', async (method, url) => {
    const payload = method === 'PATCH' ? { role: 'user' } : undefined;
    expect((await t.call({ method: method as 'GET', url: `${API}${url}`, payload })).statusCode).toBe(401);
    expect((await t.call({ method: method as 'GET', url: `${API}${url}`, payload, as: staff.user })).statusCode).toBe(403);
    const mod = await t.call({ method: method as 'GET', url: `${API}${url}`, payload, as: staff.moderator });
    expect(mod.statusCode).toBe(403);
    expect(mod.message).toBe('Only admins may do that');
  });
});

describe('GET /admin/users', () => {
  it('searches by name or email and filters by role and ban, with storage used', async () => {
    const target = await t.signUp({ fullName: 'Findable Person' });
    await seedVideo(t.ctx, target.id, { source_bytes: 1234 } as object);
    const found = await t.call({ method: 'GET', url: `${API}/admin/users?query=findable`, as: staff.admin });
    expect(found.statusCode).toBe(200);
    expect(found.data.users).toHaveLength(1);
    expect(found.data.users[0]).toMatchObject({ _id: target.id, role: 'user', banned: false, storageUsedBytes: 1234, videosCount: 1, quotaBytes: null });
    expect((await t.call({ method: 'GET', url: `${API}/admin/users?query=%25`, as: staff.admin })).data.users).toEqual([]);
    const mods = await t.call({ method: 'GET', url: `${API}/admin/users?role=moderator`, as: staff.admin });
    expect(mods.data.users.map((u: { _id: string }) => u._id)).toEqual([staff.moderator.id]);
    expect((await t.call({ method: 'GET', url: `${API}/admin/users?role=king`, as: staff.admin })).statusCode).toBe(400);
    expect((await t.call({ method: 'GET', url: `${API}/admin/users?banned=maybe`, as: staff.admin })).message).toContain('banned must be true or false');
  });
});

describe('PATCH /admin/users/:id', () => {
  it('changes role, approval and quotas, bans and unbans, each in the audit log', async () => {
    const u = await t.signUp();
    const role = await patchUser(staff.admin, u.id, { role: 'moderator' });
    expect(role.statusCode).toBe(200);
    expect(role.data.role).toBe('moderator');
    expect((await t.call({ method: 'GET', url: `${API}/admin/reports`, as: u })).statusCode).toBe(200);
    await patchUser(staff.admin, u.id, { role: 'user' });
    const quota = await patchUser(staff.admin, u.id, { quotaBytes: 1000, dailyQuotaBytes: -1 });
    expect(quota.data).toMatchObject({ quotaBytes: 1000, dailyQuotaBytes: -1 });
    const quotaAnswer = await t.call({ method: 'GET', url: `${API}/uploads/quota`, as: u });
    expect(quotaAnswer.data).toMatchObject({ quotaBytes: 1000, dailyQuotaBytes: -1 });
    const ban = await patchUser(staff.admin, u.id, { banned: true, banReason: 'Abuse' });
    expect(ban.data).toMatchObject({ banned: true, banReason: 'Abuse' });
    expect((await t.call({ method: 'GET', url: `${API}/users/user/current`, as: u })).statusCode).toBe(401);
    expect((await patchUser(staff.admin, u.id, { banned: false })).data.banned).toBe(false);
    const actions = (await t.ctx.db.selectFrom('audit_log').select('action').where('target_id', '=', u.id).orderBy('created_at').execute()).map(
      (a) => a.action,
    );
    expect(actions).toEqual(['user.role', 'user.role', 'user.quota', 'user.ban', 'user.unban']);
  });

  it('allows an account to go live and takes it back, in the audit log; moderators may not', async () => {
    const u = await t.signUp();
    expect((await patchUser(staff.admin, u.id, {})).statusCode).toBe(400);
    const listed = await t.call({ method: 'GET', url: `${API}/admin/users`, query: { query: u.username }, as: staff.admin });
    expect(listed.data.users[0].liveAllowed).toBe(false);
    const allowed = await patchUser(staff.admin, u.id, { liveAllowed: true });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.data.liveAllowed).toBe(true);
    expect((await t.ctx.db.selectFrom('users').select('live_allowed').where('id', '=', u.id).executeTakeFirstOrThrow()).live_allowed).toBe(1);
    // Allowed again: nothing changes and nothing is logged.
    await patchUser(staff.admin, u.id, { liveAllowed: true });
    expect((await patchUser(staff.admin, u.id, { liveAllowed: false })).data.liveAllowed).toBe(false);
    expect((await patchUser(staff.moderator, u.id, { liveAllowed: true })).statusCode).toBe(403);
    expect((await patchUser(staff.admin, u.id, { liveAllowed: 'yes' })).message).toMatch(/liveAllowed must be true or false/);
    const audit = await t.ctx.db.selectFrom('audit_log').select(['action', 'details']).where('target_id', '=', u.id).orderBy('created_at').execute();
    expect(audit.map((a) => [a.action, JSON.parse(a.details)])).toEqual([
      ['user.live-allowed', { from: false, to: true }],
      ['user.live-allowed', { from: true, to: false }],
    ]);
  });

  it('approves a waiting sign-up', async () => {
    const u = await t.signUp();
    await t.ctx.db.updateTable('users').set({ approval_pending: 1 }).where('id', '=', u.id).execute();
    expect((await t.call({ method: 'POST', url: `${API}/users/login`, payload: { email: u.email, password: u.password } })).statusCode).toBe(403);
    expect((await patchUser(staff.admin, u.id, { approved: true })).data.approvalPending).toBe(false);
    expect((await t.call({ method: 'POST', url: `${API}/users/login`, payload: { email: u.email, password: u.password } })).statusCode).toBe(200);
  });

  it('refuses bad input, its own role, staff bans and missing accounts', async () => {
    const u = await t.signUp();
    for (const body of [{}, { role: 'king' }, { quotaBytes: -5 }, { banned: 'yes' }, { approved: false }, { colour: 'red' }]) {
      expect((await patchUser(staff.admin, u.id, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const self = await patchUser(staff.admin, staff.admin.id, { role: 'user' });
    expect(self.statusCode).toBe(400);
    expect(self.message).toBe('You cannot change your own role');
    expect((await patchUser(staff.admin, staff.moderator.id, { banned: true })).statusCode).toBe(403);
    expect((await patchUser(staff.admin, MISSING_ID, { role: 'user' })).statusCode).toBe(404);
    expect((await patchUser(staff.admin, u.id, { role: 'user' })).data.role).toBe('user');
  });
});

describe('GET /admin/stats', () => {
  it('counts accounts, videos by state, storage and open reports', async () => {
    const res = await t.call({ method: 'GET', url: `${API}/admin/stats`, as: staff.admin });
    expect(res.statusCode).toBe(200);
    const users = Number(
      (
        await t.ctx.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(res.data).toMatchObject({
      users,
      bannedUsers: 0,
      openReports: 0,
      storageBytes: 1234,
      videos: { total: 1, ready: 1, processing: 0, failed: 0, hidden: 0 },
      publicVideos: 1,
    });
  });
});
