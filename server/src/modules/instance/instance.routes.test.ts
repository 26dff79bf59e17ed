import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffCallers } from '../../../test/support/staff.js';
import { createTestApp, multipart, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

const API = '/api/v1';
let t: TestApp;
let callers: Awaited<ReturnType<typeof staffCallers>>;
beforeAll(async () => {
  t = await createTestApp({ env: { MAX_VIDEO_BYTES: '50000000', ADMIN_EMAILS: 'owner@example.com' } });
  callers = await staffCallers(t);
});
afterAll(async () => {
  await t?.close();
});

const patch = (as: SignedIn | undefined, payload: unknown) => t.call({ method: 'PATCH', url: `${API}/admin/settings`, as, payload: payload as object });
const register = async (name: string) =>
  t.call({
    method: 'POST',
    url: `${API}/users/register`,
    payload: await multipart({ username: name, email: `${name}@example.com`, password: 'longenough', fullName: name }),
  });
const login = (email: string) => t.call({ method: 'POST', url: `${API}/users/login`, payload: { email, password: 'longenough' } });
const userRow = (username: string) => t.ctx.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();

describe('GET /instance', () => {
  it('tells anyone, signed out, the name, sign-up mode and limits', async () => {
    const res = await t.call({ method: 'GET', url: `${API}/instance` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ statusCode: 200, success: true, message: 'Instance fetched' });
    expect(res.data).toEqual({
      name: 'Reelhouse',
      description: 'A place to share and watch videos.',
      signupMode: 'open',
      demoAccount: false,
      email: { enabled: false, verification: 'off' },
      passwordSignIn: true,
      signInProviders: [],
      federation: false,
      limits: { maxVideoBytes: 50000000, maxVideoDurationSeconds: null, defaultQuotaBytes: -1, defaultDailyQuotaBytes: -1 },
    });
  });

  it('says the site federates when it has a public address', async () => {
    const federated = await createTestApp({ env: { PUBLIC_URL: 'https://video.example.com' } });
    try {
      const res = await federated.call({ method: 'GET', url: `${API}/instance` });
      expect(res.data).toMatchObject({ federation: true });
    } finally {
      await federated.close();
    }
  });
});

describe('GET /admin/settings', () => {
  it('is for admins: 401 signed out, 403 for users and moderators', async () => {
    expect((await t.call({ method: 'GET', url: `${API}/admin/settings` })).statusCode).toBe(401);
    for (const who of [callers.user, callers.moderator]) {
      const res = await t.call({ method: 'GET', url: `${API}/admin/settings`, as: who });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ statusCode: 403, data: null, message: 'Only admins may do that', success: false });
    }
    const ok = await t.call({ method: 'GET', url: `${API}/admin/settings`, as: callers.admin });
    expect(ok.statusCode).toBe(200);
    expect(ok.data).toMatchObject({ name: 'Reelhouse', signupMode: 'open', maxVideoBytes: 50000000 });
  });
});

describe('PATCH /admin/settings', () => {
  it('refuses anyone but admins and changes nothing', async () => {
    expect((await patch(undefined, { name: 'Nope' })).statusCode).toBe(401);
    expect((await patch(callers.user, { name: 'Nope' })).statusCode).toBe(403);
    expect((await patch(callers.moderator, { name: 'Nope' })).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url: `${API}/instance` })).data.name).not.toBe('Nope');
  });

  it('refuses bad input with a clear message and stores nothing', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /No setting given/],
      [{ signupMode: 'sometimes' }, /signupMode must be one of open, closed, approval/],
      [{ name: '  ' }, /name is required/],
      [{ name: 'x'.repeat(61) }, /name must be at most 60 characters/],
      [{ maxVideoBytes: 0 }, /maxVideoBytes must be at least 1/],
      [{ maxVideoBytes: 60000000 }, /maxVideoBytes must be at most 50000000, the server's MAX_VIDEO_BYTES/],
      [{ maxVideoDurationSeconds: 1.5 }, /maxVideoDurationSeconds must be a whole number/],
      [{ colour: 'red' }, /colour/],
      [{ ladderRungs: [] }, /ladderRungs needs at least one rung/],
      [{ ladderRungs: [360, 999] }, /ladderRungs must be heights among 240, 360, 480, 720, 1080/],
      [{ ladderRungs: [360, 360] }, /ladderRungs must not repeat a height/],
      [{ ladderRungs: '720' }, /ladderRungs must be a list of heights/],
      [{ demoAccount: 'yes' }, /demoAccount must be true or false/],
      [{ liveAllowed: 'some' }, /liveAllowed must be one of everyone, approved, nobody/],
      [{ maxLivesOnAir: -1 }, /maxLivesOnAir must be at least 0/],
      [{ maxLivesOnAirPerUser: 2.5 }, /maxLivesOnAirPerUser must be a whole number/],
      [{ maxLivesOnAirPerUser: '1' }, /maxLivesOnAirPerUser must be a number/],
      [{ maxLiveMinutes: 0 }, /maxLiveMinutes must be at least 1/],
      [{ maxLiveMinutes: 20_000 }, /maxLiveMinutes must be at most 10080/],
    ];
    for (const [body, message] of cases) {
      const res = await patch(callers.admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, success: false });
      expect(res.message).toMatch(message);
    }
    expect((await t.call({ method: 'GET', url: `${API}/admin/settings`, as: callers.admin })).data.maxVideoBytes).toBe(50000000);
  });

  it('has the limits on lives, by default: everyone may go live, one live on air per account, none site-wide, twelve hours at most', async () => {
    const res = await t.call({ method: 'GET', url: `${API}/admin/settings`, as: callers.admin });
    expect(res.data).toMatchObject({ liveAllowed: 'everyone', maxLivesOnAir: 0, maxLivesOnAirPerUser: 1, maxLiveMinutes: 720 });
    const changed = await patch(callers.admin, { liveAllowed: 'approved', maxLivesOnAir: 10, maxLivesOnAirPerUser: 2, maxLiveMinutes: 90 });
    expect(changed.statusCode).toBe(200);
    expect(changed.data).toMatchObject({ liveAllowed: 'approved', maxLivesOnAir: 10, maxLivesOnAirPerUser: 2, maxLiveMinutes: 90 });
    expect((await t.call({ method: 'GET', url: `${API}/admin/settings`, as: callers.admin })).data.maxLiveMinutes).toBe(90);
    await patch(callers.admin, { liveAllowed: 'everyone', maxLivesOnAir: 0, maxLivesOnAirPerUser: 1, maxLiveMinutes: 720 });
  });

  it('changes the settings everyone sees, and records who changed what', async () => {
    const res = await patch(callers.admin, { name: '  Film Club ', description: 'Short films', maxVideoDurationSeconds: 600 });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ name: 'Film Club', description: 'Short films', maxVideoDurationSeconds: 600, signupMode: 'open' });
    expect((await t.call({ method: 'GET', url: `${API}/instance` })).data).toMatchObject({ name: 'Film Club', limits: { maxVideoDurationSeconds: 600 } });
    const audit = await t.ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'settings.update')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor_id: callers.admin.id, actor_username: callers.admin.username, target_type: 'settings' });
    expect(JSON.parse(audit.details)).toEqual({
      name: { from: 'Reelhouse', to: 'Film Club' },
      description: { from: 'A place to share and watch videos.', to: 'Short films' },
      maxVideoDurationSeconds: { from: null, to: 600 },
    });
  });
});

describe('ladder rungs', () => {
  afterAll(async () => {
    await patch(callers.admin, { ladderRungs: [240, 360, 480, 720, 1080] });
  });

  it('are all made by default; an admin chooses which, and the pipeline reads them lowest first', async () => {
    expect(await t.services.instance.ladderRungs()).toEqual([240, 360, 480, 720, 1080]);
    const res = await patch(callers.admin, { ladderRungs: [720, 360] });
    expect(res.data.ladderRungs).toEqual([720, 360]);
    expect(await t.services.instance.ladderRungs()).toEqual([360, 720]);
  });
});

describe('the demo account setting', () => {
  afterAll(async () => {
    await patch(callers.admin, { demoAccount: false });
  });
  const demoLogin = () =>
    t.call({
      method: 'POST',
      url: `${API}/users/login`,
      payload: { email: t.ctx.config.demo.email, password: t.ctx.config.demo.password },
      headers: { 'x-return-tokens': 'true' },
    });

  it('turned on makes the account and lets it sign in; turned off refuses it and signs it out', async () => {
    expect((await t.call({ method: 'GET', url: `${API}/instance` })).data.demoAccount).toBe(false);
    expect((await demoLogin()).statusCode).toBe(401);
    expect((await patch(callers.admin, { demoAccount: true })).data.demoAccount).toBe(true);
    expect((await t.call({ method: 'GET', url: `${API}/instance` })).data.demoAccount).toBe(true);
    const signedIn = await demoLogin();
    expect(signedIn.statusCode).toBe(200);
    const bearer = { authorization: `Bearer ${signedIn.data.accessToken}` };
    expect((await t.call({ method: 'GET', url: `${API}/users/user/current`, headers: bearer })).statusCode).toBe(200);

    await patch(callers.admin, { demoAccount: false });
    const refused = await demoLogin();
    expect(refused.statusCode).toBe(403);
    expect(refused.message).toBe('The demo account is turned off on this site');
    expect((await t.call({ method: 'GET', url: `${API}/users/user/current`, headers: bearer })).statusCode).toBe(401);
    expect((await t.call({ method: 'POST', url: `${API}/users/refresh-token`, payload: { refreshToken: signedIn.data.refreshToken } })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: `${API}/instance` })).data.demoAccount).toBe(false);
  });
});

describe('sign-up modes', () => {
  afterAll(async () => {
    await patch(callers.admin, { signupMode: 'open' });
  });

  it('closed: refuses sign-ups with a clear message and creates nothing', async () => {
    expect((await patch(callers.admin, { signupMode: 'closed' })).statusCode).toBe(200);
    const res = await register('closedout');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ statusCode: 403, data: null, message: 'Sign-ups are closed on this site', success: false });
    expect(await userRow('closedout')).toBeUndefined();
    expect((await t.call({ method: 'GET', url: `${API}/instance` })).data.signupMode).toBe('closed');
  });

  it('by approval: the account exists but cannot sign in until approved', async () => {
    await patch(callers.admin, { signupMode: 'approval' });
    const res = await register('waiting');
    expect(res.statusCode).toBe(201);
    expect(res.message).toBe('Account created; an admin must approve it before you can sign in');
    expect(res.data).toMatchObject({ username: 'waiting', approvalPending: true });
    const refused = await login('waiting@example.com');
    expect(refused.statusCode).toBe(403);
    expect(refused.message).toBe('Your account is waiting for an admin to approve it');
    expect(refused.cookies).toHaveLength(0);
    // A wrong password learns nothing about the account's state.
    expect(
      (await t.call({ method: 'POST', url: `${API}/users/login`, payload: { email: 'waiting@example.com', password: 'wrong-password' } })).statusCode,
    ).toBe(401);
    await t.ctx.db.updateTable('users').set({ approval_pending: 0 }).where('username', '=', 'waiting').execute();
    expect((await login('waiting@example.com')).statusCode).toBe(200);
  });

  it('by approval: an ADMIN_EMAILS account is an admin at once', async () => {
    await patch(callers.admin, { signupMode: 'approval' });
    const res = await t.call({
      method: 'POST',
      url: `${API}/users/register`,
      payload: await multipart({ username: 'siteowner', email: 'owner@example.com', password: 'longenough', fullName: 'Owner' }),
    });
    expect(res.data).toMatchObject({ role: 'admin', approvalPending: false });
    expect((await login('owner@example.com')).statusCode).toBe(200);
  });

  it('open: signs up and in as before', async () => {
    await patch(callers.admin, { signupMode: 'open' });
    expect((await register('openagain')).data.approvalPending).toBe(false);
    expect((await login('openagain@example.com')).statusCode).toBe(200);
  });
});

describe('upload limits from the settings', () => {
  afterAll(async () => {
    await patch(callers.admin, { maxVideoBytes: 50000000, maxVideoDurationSeconds: null });
  });
  const upload = async (as: SignedIn) =>
    t.call({
      method: 'POST',
      url: `${API}/videos/`,
      as,
      payload: await multipart({ title: 'Clip', description: 'd' }, { videoFile: 'clip.mp4', thumbnail: 'image.png' }),
    });

  it('refuses a video longer than the longest allowed, storing nothing', async () => {
    await patch(callers.admin, { maxVideoDurationSeconds: 1 });
    const res = await upload(callers.user);
    expect(res.statusCode).toBe(413);
    expect(res.message).toMatch(/^videoFile is 2 s long; the longest video this site accepts is 1 s$/);
    expect(await t.ctx.storage.list('videos/')).toEqual([]);
    expect(await t.ctx.db.selectFrom('videos').select('id').execute()).toEqual([]);
  });

  it('refuses a video larger than the largest allowed', async () => {
    await patch(callers.admin, { maxVideoBytes: 1000, maxVideoDurationSeconds: null });
    const res = await upload(callers.user);
    expect(res.statusCode).toBe(413);
    expect(res.message).toMatch(/videoFile is larger than/);
    expect(await t.ctx.storage.list('videos/')).toEqual([]);
  });
});

describe('default quotas from the settings', () => {
  afterAll(async () => {
    await patch(callers.admin, { defaultQuotaBytes: -1, defaultDailyQuotaBytes: -1 });
  });

  it('apply to accounts without their own, and POST /videos/ refuses an upload over them storing nothing', async () => {
    const res = await patch(callers.admin, { defaultQuotaBytes: 1000, defaultDailyQuotaBytes: -1 });
    expect(res.data).toMatchObject({ defaultQuotaBytes: 1000, defaultDailyQuotaBytes: -1 });
    expect((await t.call({ method: 'GET', url: `${API}/uploads/quota`, as: callers.user })).data).toMatchObject({ quotaBytes: 1000, dailyQuotaBytes: -1 });
    const upload = await t.call({
      method: 'POST',
      url: `${API}/videos/`,
      as: callers.user,
      payload: await multipart({ title: 'Clip', description: 'd' }, { videoFile: 'clip.mp4', thumbnail: 'image.png' }),
    });
    expect(upload.statusCode).toBe(413);
    expect(upload.message).toMatch(/bytes of your 1000-byte storage quota are left$/);
    expect(await t.ctx.storage.list('videos/')).toEqual([]);
    // An account's own quota wins over the default.
    await t.ctx.db.updateTable('users').set({ quota_bytes: -1 }).where('id', '=', callers.user.id).execute();
    expect((await t.call({ method: 'GET', url: `${API}/uploads/quota`, as: callers.user })).data.quotaBytes).toBe(-1);
    await t.ctx.db.updateTable('users').set({ quota_bytes: null }).where('id', '=', callers.user.id).execute();
    expect((await patch(callers.admin, { defaultQuotaBytes: -2 })).message).toContain('defaultQuotaBytes must be at least -1');
  });
});

describe('banned accounts', () => {
  it('cannot sign in or refresh', async () => {
    const u = await t.signUp();
    await t.ctx.db.updateTable('users').set({ banned_at: Date.now() }).where('id', '=', u.id).execute();
    const res = await t.call({ method: 'POST', url: `${API}/users/login`, payload: { email: u.email, password: u.password } });
    expect(res.statusCode).toBe(403);
    expect(res.message).toBe('This account is banned');
    const refresh = await t.call({ method: 'POST', url: `${API}/users/refresh-token`, payload: { refreshToken: u.refreshToken } });
    expect(refresh.statusCode).toBe(401);
    expect(refresh.message).toBe('This account is banned');
  });
});
