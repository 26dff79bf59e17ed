import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callbackPath, PROVIDER, PROVIDER_LABEL, SSO_SITE, ssoSite } from '../../../test/support/single-sign-on.js';
import type { TestApp } from '../../../test/support/test-app.js';

const API = '/api/v1';
const html = { accept: 'text/html,application/xhtml+xml' };

let site: Awaited<ReturnType<typeof ssoSite>>;
let t: TestApp;
beforeAll(async () => {
  site = await ssoSite({
    accounts: {
      'ada-sub': { email: 'ada@campus.example', email_verified: true, name: 'Ada Lovelace', preferred_username: 'Ada.L' },
      'grace-sub': { email: 'grace@campus.example', email_verified: false, name: 'Grace Hopper' },
      'nomail-sub': { name: 'No Mail' },
    },
  });
  t = site.t;
});
afterAll(async () => {
  await t?.close();
  await site?.provider.close();
});

const current = (accessToken: string) => t.call({ method: 'GET', url: `${API}/users/user/current`, headers: { authorization: `Bearer ${accessToken}` } });

describe('GET /instance', () => {
  it('lists the providers by name and label only', async () => {
    const res = await t.call({ method: 'GET', url: `${API}/instance` });
    expect(res.data.signInProviders).toEqual([{ name: PROVIDER, label: PROVIDER_LABEL }]);
    expect(res.data.passwordSignIn).toBe(true);
    expect(res.body).not.toContain('client');
    expect(res.body).not.toContain(site.provider.issuer);
  });
});

describe('GET /auth/oidc/{name}', () => {
  it("redirects to the provider's authorization endpoint with PKCE, state and nonce, keeping only the state's hash", async () => {
    const { res, location, state } = await site.start({ returnTo: '/watch/abc?t=5' });
    expect(res.statusCode).toBe(302);
    const url = new URL(location!);
    expect(url.origin).toBe(site.provider.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'reelhouse-test',
      response_type: 'code',
      redirect_uri: `${SSO_SITE}${callbackPath()}`,
      code_challenge_method: 'S256',
      state,
    });
    expect(url.searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = res.cookies.find((c) => c.name === 'ssoState')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/v1/auth/oidc' });
    const rows = await t.ctx.db.selectFrom('sign_in_flows').selectAll().execute();
    expect(rows.some((r) => r.state_hash === state)).toBe(false);
    expect(rows.find((r) => r.return_to === '/watch/abc?t=5')).toBeTruthy();
  });

  it('is 404 for a provider the site does not have, 400 for a malformed name or a returnTo off the site', async () => {
    expect((await site.start({}, {}, 'nope')).res.statusCode).toBe(404);
    expect((await site.start({}, {}, 'Bad_Name')).res.statusCode).toBe(400);
    const offSite = await site.start({ returnTo: '//evil.example/x' });
    expect(offSite.res.statusCode).toBe(400);
    expect(offSite.res.json().message).toContain('returnTo must be a path on this site');
    expect((await site.start({ returnTo: 'https://evil.example/' })).res.statusCode).toBe(400);
    expect((await site.start({ link: 'maybe' })).res.statusCode).toBe(400);
  });

  it('asks to sign in first to link (401), and shows a browser the sign-in page with the reason', async () => {
    expect((await site.start({ link: 'true' })).res.statusCode).toBe(401);
    const browser = await site.start({ link: 'true', returnTo: '/me/devices' }, html);
    expect(browser.res.statusCode).toBe(303);
    expect(browser.location).toBe(`/me/devices?ssoError=${encodeURIComponent('Sign in first to link an account').replace(/%20/g, '+')}`);
  });
});

describe('GET /auth/oidc/{name}/callback', () => {
  it('makes an account on the first sign-in, signs it in with the usual cookies and goes back where it started', async () => {
    const { res, accessToken } = await site.signInAs('ada-sub', { returnTo: '/watch/xyz' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/watch/xyz');
    expect(res.cookies.map((c) => c.name)).toEqual(expect.arrayContaining(['accessToken', 'refreshToken']));
    expect(res.cookies.find((c) => c.name === 'ssoState')?.value).toBe('');
    const me = await current(accessToken!);
    expect(me.data).toMatchObject({ username: 'ada.l', fullName: 'Ada Lovelace', email: 'ada@campus.example', emailVerified: true, role: 'user' });
    const [row] = await site.usersByEmail('ada@campus.example');
    expect(row!.password_hash).toBe('');
    expect((await site.identities()).filter((i) => i.user_id === row!.id)).toMatchObject([
      { provider: PROVIDER, subject: 'ada-sub', email: 'ada@campus.example' },
    ]);
  });

  it('signs the same person into the same account next time', async () => {
    const first = await site.signInAs('ada-sub');
    const again = await site.signInAs('ada-sub');
    expect((await current(again.accessToken!)).data._id).toBe((await current(first.accessToken!)).data._id);
    expect(await site.usersByEmail('ada@campus.example')).toHaveLength(1);
  });

  it('makes a taken username unique (from the address when the provider gives no username)', async () => {
    await t.signUp({ username: 'grace' });
    const { accessToken } = await site.signInAs('grace-sub');
    // Addresses are not checked on this site (no mail): an unconfirmed one counts as confirmed, as at sign-up.
    expect((await current(accessToken!)).data).toMatchObject({ username: 'grace2', fullName: 'Grace Hopper', emailVerified: true });
  });

  it('refuses a provider account without an email address, and makes no account', async () => {
    const before = (await t.ctx.db.selectFrom('users').select('id').execute()).length;
    const { res } = await site.signInAs('nomail-sub');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`${PROVIDER_LABEL} did not share a valid email address, which an account on this site needs`);
    expect((await t.ctx.db.selectFrom('users').select('id').execute()).length).toBe(before);
  });

  it('does not take over an account by its address: it says to sign in and link', async () => {
    const owner = await t.signUp({ email: 'taken@campus.example' });
    site.provider.accounts.set('taken-sub', { email: 'taken@campus.example', email_verified: true, name: 'Someone' });
    const { res } = await site.signInAs('taken-sub');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(`An account with this email address already exists: sign in to it, then link ${PROVIDER_LABEL} from Sign-in and security`);
    expect((await site.identities()).some((i) => i.subject === 'taken-sub' || i.user_id === owner.id)).toBe(false);
  });

  it('refuses a state the browser does not hold, a tampered state and a replayed answer, making nothing', async () => {
    site.provider.accounts.set('mallory-sub', { email: 'mallory@campus.example', email_verified: true });
    const started = await site.start();
    const returned = await site.provider.signIn(started.location!, 'mallory-sub');

    const noCookie = await site.callback(returned, undefined);
    expect(noCookie.statusCode).toBe(400);
    expect(noCookie.json().message).toBe('This sign-in was not started in this browser, or it has expired: start again');

    const tampered = new URL(returned);
    tampered.searchParams.set('state', `${started.state}x`);
    expect((await site.callback(tampered, `${started.state}x`)).statusCode).toBe(400);
    expect((await site.callback(tampered, started.state)).statusCode).toBe(400);

    const good = await site.callback(returned, started.state);
    expect(good.statusCode).toBe(302);
    const replay = await site.callback(returned, started.state);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe('This sign-in has expired or was already used: start again');
    expect(await site.usersByEmail('mallory@campus.example')).toHaveLength(1);
  });

  it("refuses another flow's code delivered with this flow's state (PKCE and nonce do not match)", async () => {
    site.provider.accounts.set('eve-sub', { email: 'eve@campus.example', email_verified: true });
    const victim = await site.start();
    const attacker = await site.start();
    const attackerReturn = await site.provider.signIn(attacker.location!, 'eve-sub');
    const injected = new URL(attackerReturn);
    injected.searchParams.set('state', victim.state!);
    const res = await site.callback(injected, victim.state);
    expect(res.statusCode).toBe(400);
    expect(await site.usersByEmail('eve@campus.example')).toHaveLength(0);
  });

  it('refuses an ID token whose nonce is not the flow’s', async () => {
    site.provider.accounts.set('nonce-sub', { email: 'nonce@campus.example', email_verified: true });
    const started = await site.start();
    const returned = await site.provider.signIn(started.location!, 'nonce-sub');
    await t.ctx.db.updateTable('sign_in_flows').set({ nonce: 'not-the-nonce-that-was-sent' }).where('provider', '=', PROVIDER).execute();
    const res = await site.callback(returned, started.state);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`The answer from ${PROVIDER_LABEL} did not pass its checks: start again`);
    expect(await site.usersByEmail('nonce@campus.example')).toHaveLength(0);
  });

  it("shows the provider's own refusal, and a browser gets it on the sign-in page", async () => {
    const started = await site.start();
    const refused = new URL(`${SSO_SITE}${callbackPath()}`);
    refused.searchParams.set('error', 'access_denied');
    refused.searchParams.set('error_description', 'End-User aborted interaction');
    refused.searchParams.set('state', started.state!);
    refused.searchParams.set('iss', site.provider.issuer);
    const res = await site.callback(refused, started.state, html);
    expect(res.statusCode).toBe(303);
    const to = new URL(res.headers.location as string, SSO_SITE);
    expect(to.pathname).toBe('/login');
    expect(to.searchParams.get('ssoError')).toBe(`${PROVIDER_LABEL} did not sign you in: End-User aborted interaction`);
  });

  it('validates its query (400)', async () => {
    const res = await t.call({ method: 'GET', url: `${API}/auth/oidc/${PROVIDER}/callback?state=${'x'.repeat(300)}` });
    expect(res.statusCode).toBe(400);
  });
});

describe('linking from the account settings', () => {
  it('links a provider to the signed-in account, which then signs in with it; the same provider account cannot go to a second one', async () => {
    const u = await t.signUp();
    site.provider.accounts.set('link-sub', { email: 'linked@campus.example', email_verified: true });
    const linked = await site.signInAs('link-sub', { link: 'true', returnTo: `/${u.username}/devices` }, { authorization: `Bearer ${u.accessToken}` });
    expect(linked.res.statusCode).toBe(302);
    expect(linked.res.headers.location).toBe(`/${u.username}/devices`);
    // Linking signs nobody new in.
    expect(linked.accessToken).toBeUndefined();

    const list = await t.call({ method: 'GET', url: `${API}/users/identities`, as: u });
    expect(list.statusCode).toBe(200);
    expect(list.data).toMatchObject([{ provider: PROVIDER, label: PROVIDER_LABEL, email: 'linked@campus.example', lastUsedAt: null }]);

    const signedIn = await site.signInAs('link-sub');
    expect((await current(signedIn.accessToken!)).data._id).toBe(u.id);

    const other = await t.signUp();
    const again = await site.signInAs('link-sub', { link: 'true', returnTo: '/settings' }, { authorization: `Bearer ${other.accessToken}`, ...html });
    expect(again.res.statusCode).toBe(303);
    const to = new URL(again.res.headers.location as string, SSO_SITE);
    expect(to.pathname).toBe('/settings');
    expect(to.searchParams.get('ssoError')).toBe(`This ${PROVIDER_LABEL} account is already linked to another account`);
  });
});

describe('GET /users/identities', () => {
  it('is refused signed out (401), and lists nothing for an account without links', async () => {
    expect((await t.call({ method: 'GET', url: `${API}/users/identities` })).statusCode).toBe(401);
    const u = await t.signUp();
    expect((await t.call({ method: 'GET', url: `${API}/users/identities`, as: u })).data).toEqual([]);
  });
});

describe('DELETE /users/identities/{id}', () => {
  it("is 401 signed out, 400 for a bad id, 404 for a missing or another account's link", async () => {
    const u = await t.signUp();
    site.provider.accounts.set('del-sub', { email: 'del@campus.example', email_verified: true });
    await site.signInAs('del-sub', { link: 'true' }, { authorization: `Bearer ${u.accessToken}` });
    const [link] = (await t.call({ method: 'GET', url: `${API}/users/identities`, as: u })).data;
    expect((await t.call({ method: 'DELETE', url: `${API}/users/identities/${link._id}` })).statusCode).toBe(401);
    expect((await t.call({ method: 'DELETE', url: `${API}/users/identities/%20bad`, as: u })).statusCode).toBe(400);
    const other = await t.signUp();
    expect((await t.call({ method: 'DELETE', url: `${API}/users/identities/${link._id}`, as: other })).statusCode).toBe(404);
    expect((await t.call({ method: 'DELETE', url: `${API}/users/identities/missing-id-1`, as: u })).statusCode).toBe(404);
    const res = await t.call({ method: 'DELETE', url: `${API}/users/identities/${link._id}`, as: u });
    expect(res.statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: `${API}/users/identities`, as: u })).data).toEqual([]);
  });

  it("keeps an account's only way in (409): an account made by single sign-on without a password or passkey", async () => {
    site.provider.accounts.set('only-sub', { email: 'only@campus.example', email_verified: true, preferred_username: 'onlyway' });
    const { accessToken } = await site.signInAs('only-sub');
    const auth = { authorization: `Bearer ${accessToken}` };
    const [link] = (await t.call({ method: 'GET', url: `${API}/users/identities`, headers: auth })).data;
    const res = await t.call({ method: 'DELETE', url: `${API}/users/identities/${link._id}`, headers: auth });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('This is the only way into your account');
  });
});
