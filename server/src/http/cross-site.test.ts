import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, type TestApp } from '../../test/support/test-app.js';

const API = '/api/v1';
/** inject() sends Host: localhost:80. */
const OWN = 'http://localhost';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const playlistsOf = async (u: SignedIn) => (await t.call({ method: 'GET', url: `${API}/playlist/user/${u.id}`, as: u })).data as { name: string }[];
const fullNameOf = async (u: SignedIn) => (await t.call({ method: 'GET', url: `${API}/users/user/current`, as: u })).data.fullName as string;

describe('cross-site request defence', () => {
  it.each([
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['a sibling subdomain', { origin: 'http://evil.localhost' }],
    ['the opaque "null" Origin', { origin: 'null' }],
    ['a foreign Referer and no Origin', { referer: 'https://evil.example/page' }],
    ['neither Origin nor Referer', {}],
  ])('refuses a cookie-authenticated change with %s: 403 with the envelope, nothing changed', async (_name, headers) => {
    const u = await t.signUp();
    const before = await fullNameOf(u);
    const made = await t.call({ method: 'POST', url: `${API}/playlist`, cookies: u.cookies, headers, payload: { name: 'Evil list', description: 'x' } });
    expect(made.statusCode).toBe(403);
    expect(made.json()).toMatchObject({ statusCode: 403, data: null, success: false });
    expect(made.message).toMatch(/^Cross-site request refused/);
    const renamed = await t.call({ method: 'PATCH', url: `${API}/users/update-account`, cookies: u.cookies, headers, payload: { fullName: 'Hacked' } });
    expect(renamed.statusCode).toBe(403);
    const refreshed = await t.call({ method: 'POST', url: `${API}/users/refresh-token`, cookies: { refreshToken: u.refreshToken }, headers });
    expect(refreshed.statusCode).toBe(403);
    expect(await playlistsOf(u)).toEqual([]);
    expect(await fullNameOf(u)).toBe(before);
    // The refresh token was not used up by the refused call.
    const ok = await t.call({ method: 'POST', url: `${API}/users/refresh-token`, cookies: { refreshToken: u.refreshToken }, headers: { origin: OWN } });
    expect(ok.statusCode).toBe(200);
  });

  it('says what is missing when a change carries neither header', async () => {
    const u = await t.signUp();
    const res = await t.call({ method: 'DELETE', url: `${API}/users/delete-account`, cookies: u.cookies });
    expect(res.statusCode).toBe(403);
    expect(res.message).toContain('needs an Origin or Referer header');
    expect((await t.call({ method: 'GET', url: `${API}/users/user/current`, as: u })).statusCode).toBe(200);
  });

  it("lets the site's own pages change things, by Origin or by Referer", async () => {
    const u = await t.signUp();
    const byOrigin = await t.call({
      method: 'POST',
      url: `${API}/playlist`,
      cookies: u.cookies,
      headers: { origin: OWN },
      payload: { name: 'Mine', description: 'x' },
    });
    expect(byOrigin.statusCode).toBe(201);
    const byReferer = await t.call({
      method: 'PATCH',
      url: `${API}/users/update-account`,
      cookies: u.cookies,
      headers: { referer: `${OWN}/${u.username}/edit-profile` },
      payload: { fullName: 'Renamed' },
    });
    expect(byReferer.statusCode).toBe(200);
    expect(await fullNameOf(u)).toBe('Renamed');
  });

  it('exempts Bearer calls, reads, and calls that carry no cookies', async () => {
    const u = await t.signUp();
    const bearer = await t.call({
      method: 'POST',
      url: `${API}/playlist`,
      as: u,
      headers: { origin: 'https://evil.example' },
      payload: { name: 'Scripted', description: 'x' },
    });
    expect(bearer.statusCode).toBe(201);
    const read = await t.call({ method: 'GET', url: `${API}/users/user/current`, cookies: u.cookies, headers: { origin: 'https://evil.example' } });
    expect(read.statusCode).toBe(200);
    const login = await t.call({ method: 'POST', url: `${API}/users/login`, payload: { email: u.email, password: u.password } });
    expect(login.statusCode).toBe(200);
  });

  it("accepts PUBLIC_URL's origin and the listed ALLOWED_ORIGINS, and no other", async () => {
    const x = await createTestApp({ env: { PUBLIC_URL: 'https://video.example.com', ALLOWED_ORIGINS: 'https://app.example.com' } });
    try {
      const u = await x.signUp();
      const post = (origin: string) =>
        x.call({ method: 'POST', url: `${API}/playlist`, cookies: u.cookies, headers: { origin }, payload: { name: `From ${origin}`, description: 'x' } });
      expect((await post('https://video.example.com')).statusCode).toBe(201);
      expect((await post('https://app.example.com')).statusCode).toBe(201);
      // With PUBLIC_URL set, the Host header no longer decides what "own" means.
      expect((await post(OWN)).statusCode).toBe(403);
      expect((await post('http://video.example.com')).statusCode).toBe(403);
    } finally {
      await x.close();
    }
  });
});

describe('tokens stay out of answer bodies unless asked for', () => {
  it('login and refresh set cookies only; X-Return-Tokens: true adds the tokens to the body', async () => {
    const u = await t.signUp();
    const login = await t.call({ method: 'POST', url: `${API}/users/login`, payload: { email: u.email, password: u.password } });
    expect(login.statusCode).toBe(200);
    expect(Object.keys(login.data)).toEqual(['user']);
    expect(login.body).not.toMatch(/accessToken|refreshToken/);
    expect(login.cookies.map((c) => c.name).sort()).toEqual(['accessToken', 'refreshToken']);
    const refreshCookie = login.cookies.find((c) => c.name === 'refreshToken')!.value;

    const refreshed = await t.call({ method: 'POST', url: `${API}/users/refresh-token`, cookies: { refreshToken: refreshCookie }, headers: { origin: OWN } });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.data).toEqual({});
    expect(refreshed.body).not.toMatch(/accessToken|refreshToken/);

    const asked = await t.call({
      method: 'POST',
      url: `${API}/users/login`,
      headers: { 'x-return-tokens': 'true' },
      payload: { email: u.email, password: u.password },
    });
    expect(asked.data).toMatchObject({ user: { _id: u.id }, accessToken: expect.any(String), refreshToken: expect.any(String) });
    const askedRefresh = await t.call({
      method: 'POST',
      url: `${API}/users/refresh-token`,
      headers: { 'x-return-tokens': 'true' },
      payload: { refreshToken: asked.data.refreshToken },
    });
    expect(askedRefresh.statusCode).toBe(200);
    expect(askedRefresh.data).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String) });
    const me = await t.call({ method: 'GET', url: `${API}/users/user/current`, headers: { authorization: `Bearer ${askedRefresh.data.accessToken}` } });
    expect(me.statusCode).toBe(200);
  });

  it('documents the header in the OpenAPI document', async () => {
    const doc = (await t.call({ method: 'GET', url: '/api/docs/json' })).json();
    for (const path of ['/api/v1/users/login', '/api/v1/users/refresh-token']) {
      const params = doc.paths[path].post.parameters as { name: string; in: string; description?: string }[];
      expect(params).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'x-return-tokens', in: 'header' })]));
    }
  });
});
