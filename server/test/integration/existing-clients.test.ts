import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, multipart, type SignedIn, type TestApp } from '../support/test-app.js';

/**
 * The requests a browser client written against SPEC.md sends, replayed exactly (cookies, no
 * Bearer header), with the answers such a client needs to keep working.
 */
const API = '/api/v1';
/** inject() sends Host: localhost:80, so this is the site's own origin. */
const OWN_ORIGIN = 'http://localhost';

const asBrowser = (u: SignedIn) => ({ cookies: u.cookies, headers: { origin: OWN_ORIGIN } });

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('answers a client of the contract relies on', () => {
  it('PATCH /users/watch-history/{videoId} answers the signed-in user, as GET /users/user/current does', async () => {
    const owner = await t.signUp();
    const up = await t.call({
      method: 'POST',
      url: `${API}/videos/`,
      as: owner,
      payload: await multipart({ title: 'Mine', description: 'Own video' }, { videoFile: 'clip.mp4', thumbnail: 'image.png' }),
    });
    expect(up.statusCode).toBe(201);
    const res = await t.call({ method: 'PATCH', url: `${API}/users/watch-history/${up.data._id}`, ...asBrowser(owner) });
    const current = await t.call({ method: 'GET', url: `${API}/users/user/current`, cookies: owner.cookies });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual(current.data);
    expect(res.data._id).toBe(owner.id);
  });

  it('PATCH /users/update-account with one field blank changes the other and keeps the blank one', async () => {
    const u = await t.signUp();
    const res = await t.call({ method: 'PATCH', url: `${API}/users/update-account`, ...asBrowser(u), payload: { fullName: 'Bob', username: '' } });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ fullName: 'Bob', username: u.username });
    const other = await t.call({
      method: 'PATCH',
      url: `${API}/users/update-account`,
      ...asBrowser(u),
      payload: { fullName: '  ', username: `${u.username}2` },
    });
    expect(other.statusCode).toBe(200);
    expect(other.data).toMatchObject({ fullName: 'Bob', username: `${u.username}2` });
    const neither = await t.call({ method: 'PATCH', url: `${API}/users/update-account`, ...asBrowser(u), payload: { fullName: '', username: '' } });
    expect(neither.statusCode).toBe(400);
    expect(neither.json()).toMatchObject({ statusCode: 400, success: false, message: 'No update value provided.' });
  });

  it('a taken username answers 409 with the marker in data as well as in the message', async () => {
    const a = await t.signUp();
    const b = await t.signUp();
    const expected = { statusCode: 409, data: { error: 'username exists' }, message: 'username exists', success: false };
    const update = await t.call({ method: 'PATCH', url: `${API}/users/update-account`, ...asBrowser(b), payload: { fullName: 'B', username: a.username } });
    expect(update.json()).toEqual(expected);
    const register = await t.call({
      method: 'POST',
      url: `${API}/users/register`,
      payload: await multipart({ username: a.username, email: 'fresh-address@example.com', password: 'longenough', fullName: 'X' }),
    });
    expect(register.json()).toEqual(expected);
  });
});

describe('POST /videos/ answers a playable url at once', () => {
  let real: TestApp;
  beforeAll(async () => {
    // The real pipeline: the answer comes back while the fast-start file may still be in the making.
    real = await createTestApp({ serveSourceAsIs: false });
  });
  afterAll(async () => {
    await real?.close();
  });

  it('never an empty videoFile.url, and the url serves an mp4 a browser plays', async () => {
    const owner = await real.signUp();
    const res = await real.call({
      method: 'POST',
      url: `${API}/videos/`,
      as: owner,
      payload: await multipart({ title: 'Fresh', description: 'Just uploaded' }, { videoFile: 'clip.mp4', thumbnail: 'image.png' }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.data.videoFile.url).toMatch(/^\/media\/videos\/[\w-]+\/\S+\.mp4$/);
    const served = await real.call({ method: 'GET', url: res.data.videoFile.url, headers: { range: 'bytes=0-1023' } });
    expect(served.statusCode).toBe(206);
    expect(served.headers['content-type']).toBe('video/mp4');
    expect(served.rawPayload.subarray(4, 8).toString()).toBe('ftyp');
    // Every answer after that has a url too, up to the fast-start file.
    await expect
      .poll(
        async () => {
          const got = await real.call({ method: 'GET', url: `${API}/videos/${res.data._id}`, as: owner });
          expect(got.data.videoFile.url).not.toBe('');
          return got.data.videoFile.url;
        },
        { timeout: 60_000, interval: 200 },
      )
      .toMatch(/play\.mp4$/);
  });
});

describe('refresh-token races', () => {
  const refresh = (app: TestApp, token: string) =>
    app.call({ method: 'POST', url: `${API}/users/refresh-token`, cookies: { refreshToken: token }, headers: { origin: OWN_ORIGIN } });
  const cookieOf = (res: { cookies: { name: string; value: string }[] }, name: string) => res.cookies.find((c) => c.name === name)?.value;
  const liveSessions = (app: TestApp, userId: string) =>
    app.ctx.db.selectFrom('sessions').select('id').where('user_id', '=', userId).where('revoked_at', 'is', null).execute();

  it.each([2, 8])('%i parallel refreshes with one token all succeed and leave one live session', async (n) => {
    const u = await t.signUp();
    const answers = await Promise.all(Array.from({ length: n }, () => refresh(t, u.refreshToken)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(n).fill(200));
    const successors = new Set(answers.map((a) => cookieOf(a, 'refreshToken')));
    expect(successors.size).toBe(1);
    const [successor] = [...successors];
    expect(successor).toBeTruthy();
    expect(successor).not.toBe(u.refreshToken);
    expect(await liveSessions(t, u.id)).toHaveLength(1);
    // Every tab's new access token works, and the shared successor refreshes on.
    for (const a of answers) {
      const me = await t.call({ method: 'GET', url: `${API}/users/user/current`, cookies: { accessToken: cookieOf(a, 'accessToken')! } });
      expect(me.statusCode).toBe(200);
    }
    expect((await refresh(t, successor!)).statusCode).toBe(200);
    expect(await liveSessions(t, u.id)).toHaveLength(1);
  });

  it('a late racer behind two rotations reaches the live token, without rotating it away', async () => {
    const u = await t.signUp();
    const first = await refresh(t, u.refreshToken);
    const second = await refresh(t, cookieOf(first, 'refreshToken')!);
    const late = await refresh(t, u.refreshToken);
    expect(late.statusCode).toBe(200);
    expect(cookieOf(late, 'refreshToken')).toBe(cookieOf(second, 'refreshToken'));
    expect((await refresh(t, cookieOf(second, 'refreshToken')!)).statusCode).toBe(200);
  });

  it('reuse after the grace window still revokes the whole session', async () => {
    const short = await createTestApp({ env: { REFRESH_REUSE_GRACE_SECONDS: '1' } });
    try {
      const u = await short.signUp();
      const first = await refresh(short, u.refreshToken);
      expect(first.statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 1300));
      const reuse = await refresh(short, u.refreshToken);
      expect(reuse.statusCode).toBe(401);
      expect(reuse.message).toBe('Refresh token was already used; please sign in again');
      expect((await refresh(short, cookieOf(first, 'refreshToken')!)).statusCode).toBe(401);
      const me = await short.call({ method: 'GET', url: `${API}/users/user/current`, cookies: { accessToken: cookieOf(first, 'accessToken')! } });
      expect(me.statusCode).toBe(401);
      expect(await liveSessions(short, u.id)).toHaveLength(0);
    } finally {
      await short.close();
    }
  });

  it('with no grace window an immediate reuse revokes', async () => {
    const none = await createTestApp({ env: { REFRESH_REUSE_GRACE_SECONDS: '0' } });
    try {
      const u = await none.signUp();
      const first = await refresh(none, u.refreshToken);
      await new Promise((r) => setTimeout(r, 5));
      expect((await refresh(none, u.refreshToken)).statusCode).toBe(401);
      expect((await refresh(none, cookieOf(first, 'refreshToken')!)).statusCode).toBe(401);
    } finally {
      await none.close();
    }
  });
});

describe('refresh has its own, much higher rate limit', () => {
  it('sign-ins are cut at their limit while refreshes from the same address go on to theirs', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '5', RATE_LIMIT_REFRESH_PER_MINUTE: '40' } });
    try {
      const login = () => limited.call({ method: 'POST', url: `${API}/users/login`, payload: { email: 'nobody@example.com', password: 'wrong-password' } });
      const refresh = () =>
        limited.call({ method: 'POST', url: `${API}/users/refresh-token`, cookies: { refreshToken: 'not-a-token' }, headers: { origin: OWN_ORIGIN } });
      const logins = [];
      for (let i = 0; i < 6; i++) logins.push((await login()).statusCode);
      expect(logins).toEqual([401, 401, 401, 401, 401, 429]);
      const refreshes = [];
      for (let i = 0; i < 41; i++) refreshes.push((await refresh()).statusCode);
      expect(refreshes.slice(0, 40)).toEqual(Array(40).fill(401));
      expect(refreshes[40]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('a web client on another origin', () => {
  const CLIENT = 'https://app.example.com';
  let x: TestApp;
  beforeAll(async () => {
    x = await createTestApp({ env: { ALLOWED_ORIGINS: `${CLIENT}, https://other.example.com`, PUBLIC_URL: 'https://api.example.com/' } });
  });
  afterAll(async () => {
    await x?.close();
  });

  it('answers preflights from an allowed origin, tus headers included', async () => {
    const res = await x.call({
      method: 'OPTIONS',
      url: `${API}/playlist`,
      headers: { origin: CLIENT, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'content-type,upload-offset,tus-resumable' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(CLIENT);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(String(res.headers['access-control-allow-methods'])).toContain('PATCH');
    const allowed = String(res.headers['access-control-allow-headers']).toLowerCase();
    for (const h of ['content-type', 'upload-offset', 'tus-resumable', 'x-return-tokens']) expect(allowed).toContain(h);
  });

  it('credentialed GET and POST from an allowed origin carry the CORS headers', async () => {
    const u = await x.signUp();
    const me = await x.call({ method: 'GET', url: `${API}/users/user/current`, cookies: u.cookies, headers: { origin: CLIENT } });
    expect(me.statusCode).toBe(200);
    expect(me.headers['access-control-allow-origin']).toBe(CLIENT);
    expect(me.headers['access-control-allow-credentials']).toBe('true');
    expect(String(me.headers['access-control-expose-headers']).toLowerCase()).toContain('upload-offset');
    const made = await x.call({
      method: 'POST',
      url: `${API}/playlist`,
      cookies: u.cookies,
      headers: { origin: CLIENT },
      payload: { name: 'From the app', description: 'Cross-origin' },
    });
    expect(made.statusCode).toBe(201);
    expect(made.headers['access-control-allow-origin']).toBe(CLIENT);
  });

  it('a disallowed origin gets no CORS headers at all', async () => {
    const u = await x.signUp();
    const pre = await x.call({
      method: 'OPTIONS',
      url: `${API}/playlist`,
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
    const get = await x.call({ method: 'GET', url: `${API}/users/user/current`, cookies: u.cookies, headers: { origin: 'https://evil.example' } });
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
    expect(get.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('media and default image URLs are absolute under PUBLIC_URL, and media answers carry CORS for the client', async () => {
    const u = await x.signUp();
    const me = await x.call({ method: 'GET', url: `${API}/users/user/current`, as: u });
    expect(me.data.avatar.url).toBe('https://api.example.com/static/default-avatar.svg');
    expect(me.data.coverImage.url).toBe('https://api.example.com/static/default-cover.svg');
    const up = await x.call({
      method: 'POST',
      url: `${API}/videos/`,
      as: u,
      payload: await multipart({ title: 'Far', description: 'Away' }, { videoFile: 'clip.mp4', thumbnail: 'image.png' }),
    });
    expect(up.statusCode).toBe(201);
    expect(up.data.thumbnail.url).toMatch(/^https:\/\/api\.example\.com\/media\/videos\//);
    expect(up.data.videoFile.url).toMatch(/^https:\/\/api\.example\.com\/media\/videos\/.+\.mp4$/);
    const path = new URL(up.data.videoFile.url).pathname;
    const media = await x.call({ method: 'GET', url: path, headers: { origin: CLIENT, range: 'bytes=0-9' } });
    expect(media.statusCode).toBe(206);
    expect(media.headers['access-control-allow-origin']).toBe(CLIENT);
  });

  it('stays off by default: preflights are unknown routes and no answer carries CORS headers', async () => {
    const pre = await t.call({ method: 'OPTIONS', url: `${API}/playlist`, headers: { origin: CLIENT, 'access-control-request-method': 'POST' } });
    expect(pre.statusCode).toBe(404);
    expect(pre.json()).toMatchObject({ statusCode: 404, success: false });
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const get = await t.call({ method: 'GET', url: `${API}/healthcheck`, headers: { origin: CLIENT } });
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });
});
