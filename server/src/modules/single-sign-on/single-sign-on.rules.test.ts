import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { startMailServer } from '../../../test/support/mail-server.js';
import { PROVIDER_LABEL, ssoSite } from '../../../test/support/single-sign-on.js';
import { signUpAs } from '../../../test/support/staff.js';

const API = '/api/v1';
const sites: Array<Awaited<ReturnType<typeof ssoSite>>> = [];
const open = async (opts: Parameters<typeof ssoSite>[0] = {}) => {
  const site = await ssoSite(opts);
  sites.push(site);
  return site;
};
afterEach(async () => {
  for (const site of sites.splice(0)) {
    await site.t.close();
    await site.provider.close();
  }
});
const countUsers = async (site: Awaited<ReturnType<typeof ssoSite>>) => (await site.t.ctx.db.selectFrom('users').select('id').execute()).length;

describe('a provider that is down', () => {
  it('is a clear 502 at the start, with no flow kept and no account made; a browser sees it on the sign-in page', async () => {
    const site = await open({ providerIssuer: 'http://127.0.0.1:9' });
    const { res } = await site.start();
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ success: false, message: `${PROVIDER_LABEL} cannot be reached just now: try again in a moment` });
    expect(await site.t.ctx.db.selectFrom('sign_in_flows').selectAll().execute()).toEqual([]);
    const browser = await site.start({}, { accept: 'text/html' });
    expect(browser.res.statusCode).toBe(303);
    expect(new URL(browser.location!, 'http://x').searchParams.get('ssoError')).toBe(`${PROVIDER_LABEL} cannot be reached just now: try again in a moment`);
  });

  it('is a clear 502 when it goes away between the redirect and the return, and no account is made', async () => {
    const site = await open({ accounts: { 'sub-1': { email: 'gone@campus.example', email_verified: true } } });
    // The first start fetches and keeps the provider's metadata; the token endpoint is then unreachable.
    const started = await site.start();
    const returned = await site.provider.signIn(started.location!, 'sub-1');
    const before = await countUsers(site);
    await site.provider.close();
    const res = await site.callback(returned, started.state);
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toBe(`${PROVIDER_LABEL} cannot be reached just now: try again in a moment`);
    expect(await countUsers(site)).toBe(before);
  });
});

describe('sign-up modes', () => {
  it('closed: no new account, but a linked account still signs in', async () => {
    const site = await open({
      accounts: { newcomer: { email: 'new@campus.example', email_verified: true }, member: { email: 'm@campus.example', email_verified: true } },
    });
    const member = await site.signInAs('member');
    expect(member.res.statusCode).toBe(302);
    const admin = await signUpAs(site.t, 'admin');
    expect((await site.t.call({ method: 'PATCH', url: `${API}/admin/settings`, as: admin, payload: { signupMode: 'closed' } })).statusCode).toBe(200);
    const refused = await site.signInAs('newcomer');
    expect(refused.res.statusCode).toBe(403);
    expect(refused.res.json().message).toBe(`Sign-ups are closed on this site: only accounts already linked to ${PROVIDER_LABEL} can sign in`);
    expect(await site.usersByEmail('new@campus.example')).toHaveLength(0);
    expect((await site.signInAs('member')).res.statusCode).toBe(302);
  });

  it('approval: the account is made and waits for an admin, and says so', async () => {
    const site = await open({ accounts: { waiting: { email: 'wait@campus.example', email_verified: true } } });
    const admin = await signUpAs(site.t, 'admin');
    await site.t.call({ method: 'PATCH', url: `${API}/admin/settings`, as: admin, payload: { signupMode: 'approval' } });
    const { res, accessToken } = await site.signInAs('waiting');
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Your account is waiting for an admin to approve it');
    expect(accessToken).toBeUndefined();
    expect(await site.usersByEmail('wait@campus.example')).toMatchObject([{ approval_pending: 1 }]);
  });
});

describe('addresses checked by mail (EMAIL_VERIFICATION=required)', () => {
  it("takes the provider's word for a confirmed address, and mails a link for an unconfirmed one before sign-in", async () => {
    const mail = await startMailServer();
    try {
      const site = await open({
        env: { SMTP_URL: mail.url, EMAIL_VERIFICATION: 'required' },
        runJobs: true,
        accounts: { checked: { email: 'ok@campus.example', email_verified: true }, unchecked: { email: 'maybe@campus.example', email_verified: false } },
      });
      expect((await site.signInAs('checked')).res.statusCode).toBe(302);
      const { res } = await site.signInAs('unchecked');
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toContain('Confirm your email address first');
      const letter = await mail.next('maybe@campus.example');
      expect(letter.text).toContain('/verify-email?token=');
    } finally {
      await mail.close();
    }
  });
});

describe('password sign-in turned off', () => {
  it('leaves single sign-on, and the admins’ own passwords; password sign-ups, sign-ins and passkeys of others are refused', async () => {
    const site = await open({ env: { ADMIN_EMAILS: 'boss@example.com' }, accounts: { someone: { email: 's@campus.example', email_verified: true } } });
    const { t } = site;
    const user = await t.signUp();
    const boss = await t.signUp({ email: 'boss@example.com' });
    const off = await t.call({ method: 'PATCH', url: `${API}/admin/settings`, as: boss, payload: { passwordSignIn: false } });
    expect(off.statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: `${API}/instance` })).data.passwordSignIn).toBe(false);

    const login = (email: string, password: string) => t.call({ method: 'POST', url: `${API}/users/login`, payload: { email, password } });
    const refused = await login(user.email, user.password);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Password sign-in is turned off on this site: sign in with single sign-on');
    // A wrong password is still just wrong: the setting is told only to whoever knows the password.
    expect((await login(user.email, 'not-the-password')).statusCode).toBe(401);
    expect((await login(boss.email, boss.password)).statusCode).toBe(200);

    const form = new FormData();
    for (const [k, v] of Object.entries({ username: 'latecomer', email: 'late@example.com', password: 'correct-horse-1', fullName: 'Late' })) form.append(k, v);
    const signup = await t.call({ method: 'POST', url: `${API}/users/register`, payload: form });
    expect(signup.statusCode).toBe(403);
    expect(signup.json().message).toBe('Sign-ups with a password are turned off on this site: sign up with single sign-on');

    expect((await site.signInAs('someone')).res.statusCode).toBe(302);
  });

  it('cannot be turned off without a provider (400), so that nobody but admins is locked out', async () => {
    const { createTestApp } = await import('../../../test/support/test-app.js');
    const t = await createTestApp();
    try {
      const admin = await signUpAs(t, 'admin');
      const res = await t.call({ method: 'PATCH', url: `${API}/admin/settings`, as: admin, payload: { passwordSignIn: false } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('passwordSignIn can be turned off only when single sign-on is set up (OIDC_PROVIDERS)');
      expect((await t.call({ method: 'GET', url: `${API}/instance` })).data).toMatchObject({ passwordSignIn: true, signInProviders: [] });
    } finally {
      await t.close();
    }
  });
});

describe('the request log', () => {
  it("writes neither the provider's code and state nor the person's address", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const site = await open({
      env: { LOG_LEVEL: 'info' },
      logTo: sink,
      accounts: { logged: { email: 'private.person@campus.example', email_verified: true } },
    });
    const { res, returned, state } = await site.signInAs('logged');
    expect(res.statusCode).toBe(302);
    const all = lines.join('');
    expect(all).toContain('/callback?code=[redacted]');
    for (const secret of [returned.searchParams.get('code')!, state!, 'private.person@campus.example']) expect(all).not.toContain(secret);
  });
});
