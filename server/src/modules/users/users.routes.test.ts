import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, multipart, type TestApp } from '../../../test/support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const envelopeOk = (res: { json(): any }, status: number) => {
  const body = res.json();
  expect(body).toMatchObject({ statusCode: status, success: status < 400 });
  expect(typeof body.message).toBe('string');
  return body;
};

/** The media route serves a stored image under its URL: a WebP, byte for byte what storage holds. */
async function expectServedWebp(url: string, storedKeys: string[]) {
  const key = url.replace(/^\/media\//, '');
  expect(storedKeys).toContain(key);
  const served = await t.call({ method: 'GET', url });
  expect(served.statusCode).toBe(200);
  expect(served.headers['content-type']).toBe('image/webp');
  const bytes = served.rawPayload;
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
  expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
  const stored: Buffer[] = [];
  for await (const chunk of await t.ctx.storage.read(key)) stored.push(chunk as Buffer);
  expect(bytes.equals(Buffer.concat(stored))).toBe(true);
}

describe('POST /users/register', () => {
  it('creates a user with default images and never returns the password', async () => {
    const form = await multipart({ username: 'New.User_1', email: 'New@Example.com', password: 'longenough', fullName: ' New User ' });
    const res = await t.call({ method: 'POST', url: '/api/v1/users/register', payload: form });
    expect(res.statusCode).toBe(201);
    envelopeOk(res, 201);
    expect(res.data).toMatchObject({ username: 'new.user_1', email: 'new@example.com', fullName: 'New User' });
    expect(res.data.avatar.url).toBe('/static/default-avatar.svg');
    expect(res.data.coverImage.url).toBe('/static/default-cover.svg');
    expect(res.body).not.toContain('longenough');
    expect(res.body).not.toContain('password');
  });

  it('stores uploaded avatar and cover re-encoded as WebP', async () => {
    const form = await multipart(
      { username: 'withimages', email: 'img@example.com', password: 'longenough', fullName: 'Img' },
      { avatar: 'image.png', coverImage: 'image.jpg' },
    );
    const res = await t.call({ method: 'POST', url: '/api/v1/users/register', payload: form });
    expect(res.statusCode).toBe(201);
    expect(res.data.avatar.url).toMatch(new RegExp(`^/media/users/${res.data._id}/avatar-.+\\.webp$`));
    const keys = await t.ctx.storage.list(`users/${res.data._id}/`);
    expect(keys).toHaveLength(2);
    await expectServedWebp(res.data.avatar.url, keys);
    await expectServedWebp(res.data.coverImage.url, keys);
  });

  it('lists every bad field', async () => {
    const form = await multipart({ username: 'x', email: 'not-an-email', password: 'short' });
    const res = await t.call({ method: 'POST', url: '/api/v1/users/register', payload: form });
    expect(res.statusCode).toBe(400);
    const body = envelopeOk(res, 400);
    expect(body.data.errors.map((e: { path: string }) => e.path).sort()).toEqual(['email', 'fullName', 'password', 'username']);
  });

  it('answers 409 for a taken username or email, case-insensitively', async () => {
    const a = await t.signUp();
    const dupName = await t.call({
      method: 'POST',
      url: '/api/v1/users/register',
      payload: await multipart({ username: a.username.toUpperCase(), email: 'other@example.com', password: 'longenough', fullName: 'X' }),
    });
    expect(dupName.statusCode).toBe(409);
    expect(dupName.message).toBe('username exists');
    const dupMail = await t.call({
      method: 'POST',
      url: '/api/v1/users/register',
      payload: await multipart({ username: 'freshname', email: a.email.toUpperCase(), password: 'longenough', fullName: 'X' }),
    });
    expect(dupMail.statusCode).toBe(409);
    expect(dupMail.message).toBe('email exists');
  });

  it('rejects a gif avatar with 415 and garbage with 422, leaving no user and no file', async () => {
    for (const [file, status] of [
      ['image.gif', 415],
      ['garbage.png', 422],
    ] as const) {
      const form = await multipart({ username: `bad${status}`, email: `bad${status}@example.com`, password: 'longenough', fullName: 'Bad' }, { avatar: file });
      const res = await t.call({ method: 'POST', url: '/api/v1/users/register', payload: form });
      expect(res.statusCode).toBe(status);
      expect(await t.services.users.channel(`bad${status}`, null).catch((e) => e.statusCode)).toBe(404);
    }
    expect((await t.ctx.storage.list('users/')).every((k) => !k.includes('bad'))).toBe(true);
  });

  it('rejects an image over the size limit with 413', async () => {
    const small = await createTestApp({ env: { MAX_IMAGE_BYTES: '100' } });
    try {
      const form = await multipart({ username: 'bigimg', email: 'big@example.com', password: 'longenough', fullName: 'Big' }, { avatar: 'image.png' });
      const res = await small.call({ method: 'POST', url: '/api/v1/users/register', payload: form });
      expect(res.statusCode).toBe(413);
      expect(await small.ctx.storage.list('users/')).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('answers 415 to a JSON body', async () => {
    const res = await t.call({ method: 'POST', url: '/api/v1/users/register', payload: { username: 'jsonuser' } });
    expect(res.statusCode).toBe(415);
  });
});

describe('POST /users/login and sessions', () => {
  it('signs in with httpOnly cookies and accepts the token as Bearer too', async () => {
    const u = await t.signUp();
    const res = await t.call({ method: 'POST', url: '/api/v1/users/login', payload: { email: u.email.toUpperCase(), password: u.password } });
    expect(res.statusCode).toBe(200);
    expect(res.data.user.username).toBe(u.username);
    const access = res.cookies.find((c) => c.name === 'accessToken')!;
    expect(access).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const viaCookie = await t.call({ method: 'GET', url: '/api/v1/users/user/current', cookies: { accessToken: access.value } });
    expect(viaCookie.statusCode).toBe(200);
    expect(viaCookie.data._id).toBe(u.id);
  });

  it('answers 401 to a wrong password or unknown email, and 400 to missing fields', async () => {
    const u = await t.signUp();
    expect((await t.call({ method: 'POST', url: '/api/v1/users/login', payload: { email: u.email, password: 'wrong-password' } })).statusCode).toBe(401);
    expect((await t.call({ method: 'POST', url: '/api/v1/users/login', payload: { email: 'nobody@example.com', password: 'whatever1' } })).statusCode).toBe(
      401,
    );
    const missing = await t.call({ method: 'POST', url: '/api/v1/users/login', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().data.errors.length).toBe(2);
  });

  it('keeps other devices signed in on logout, and signs out the current one', async () => {
    const u = await t.signUp();
    const other = await t.call({
      method: 'POST',
      url: '/api/v1/users/login',
      headers: { 'x-return-tokens': 'true' },
      payload: { email: u.email, password: u.password },
    });
    const out = await t.call({ method: 'POST', url: '/api/v1/users/logout', as: u });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === 'accessToken')?.value).toBe('');
    expect((await t.call({ method: 'GET', url: '/api/v1/users/user/current', as: u })).statusCode).toBe(401);
    expect(
      (await t.call({ method: 'GET', url: '/api/v1/users/user/current', headers: { authorization: `Bearer ${other.data.accessToken}` } })).statusCode,
    ).toBe(200);
  });

  it('treats a forged or missing token as signed out', async () => {
    expect((await t.call({ method: 'GET', url: '/api/v1/users/user/current' })).statusCode).toBe(401);
    const forged = await t.call({ method: 'GET', url: '/api/v1/users/user/current', headers: { authorization: 'Bearer eyJzdWIiOiJ4In0.c2ln' } });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual({ statusCode: 401, data: null, message: 'Unauthorized request', success: false });
    expect((await t.call({ method: 'POST', url: '/api/v1/users/refresh-token' })).statusCode).toBe(401);
  });

  it('signing out while signed out is harmless', async () => {
    expect((await t.call({ method: 'POST', url: '/api/v1/users/logout' })).statusCode).toBe(200);
  });
});

describe('PATCH /users/update-account', () => {
  it('updates the name and username of the owner only', async () => {
    const u = await t.signUp();
    const res = await t.call({ method: 'PATCH', url: '/api/v1/users/update-account', as: u, payload: { fullName: 'Renamed', username: `${u.username}x` } });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ fullName: 'Renamed', username: `${u.username}x` });
    expect((await t.call({ method: 'PATCH', url: '/api/v1/users/update-account', payload: { fullName: 'Nope' } })).statusCode).toBe(401);
  });

  it('answers 409 "username exists" for a taken username and 400 for nothing to update', async () => {
    const a = await t.signUp();
    const b = await t.signUp();
    const taken = await t.call({ method: 'PATCH', url: '/api/v1/users/update-account', as: b, payload: { username: a.username } });
    expect(taken.json()).toEqual({ statusCode: 409, data: { error: 'username exists' }, message: 'username exists', success: false });
    const empty = await t.call({ method: 'PATCH', url: '/api/v1/users/update-account', as: b, payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.message).toBe('No update value provided.');
    const bad = await t.call({ method: 'PATCH', url: '/api/v1/users/update-account', as: b, payload: { username: 'has space' } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('PATCH /users/change-avatar and /users/change-cover-image', () => {
  it('replaces the image and removes the old file', async () => {
    const u = await t.signUp();
    const first = await t.call({ method: 'PATCH', url: '/api/v1/users/change-avatar', as: u, payload: await multipart({}, { avatar: 'image.png' }) });
    expect(first.statusCode).toBe(200);
    const second = await t.call({ method: 'PATCH', url: '/api/v1/users/change-avatar', as: u, payload: await multipart({}, { avatar: 'image.webp' }) });
    expect(second.statusCode).toBe(200);
    expect(second.data.avatar.url).not.toBe(first.data.avatar.url);
    const cover = await t.call({ method: 'PATCH', url: '/api/v1/users/change-cover-image', as: u, payload: await multipart({}, { coverImage: 'image.jpg' }) });
    expect(cover.statusCode).toBe(200);
    const keys = await t.ctx.storage.list(`users/${u.id}/`);
    expect(keys).toHaveLength(2);
    await expectServedWebp(second.data.avatar.url, keys);
    await expectServedWebp(cover.data.coverImage.url, keys);
    const replaced = await t.call({ method: 'GET', url: first.data.avatar.url });
    expect(replaced.json()).toEqual({ statusCode: 404, data: null, message: 'Media not found', success: false });
  });

  it('needs sign-in, a file, and a real image', async () => {
    const u = await t.signUp();
    expect((await t.call({ method: 'PATCH', url: '/api/v1/users/change-avatar', payload: await multipart({}, { avatar: 'image.png' }) })).statusCode).toBe(401);
    expect((await t.call({ method: 'PATCH', url: '/api/v1/users/change-avatar', as: u, payload: await multipart({ x: 'y' }) })).statusCode).toBe(400);
    expect(
      (await t.call({ method: 'PATCH', url: '/api/v1/users/change-cover-image', as: u, payload: await multipart({}, { coverImage: 'garbage.png' }) }))
        .statusCode,
    ).toBe(422);
    expect(await t.ctx.storage.list(`users/${u.id}/`)).toEqual([]);
  });
});

describe('PATCH /users/change-password', () => {
  it('changes the password and signs out the other devices', async () => {
    const u = await t.signUp();
    const other = await t.call({
      method: 'POST',
      url: '/api/v1/users/login',
      headers: { 'x-return-tokens': 'true' },
      payload: { email: u.email, password: u.password },
    });
    const res = await t.call({
      method: 'PATCH',
      url: '/api/v1/users/change-password',
      as: u,
      payload: { oldPassword: u.password, newPassword: 'brand-new-pass' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.message).toBe('Password changed successfully');
    expect((await t.call({ method: 'GET', url: '/api/v1/users/user/current', as: u })).statusCode).toBe(200);
    expect(
      (await t.call({ method: 'GET', url: '/api/v1/users/user/current', headers: { authorization: `Bearer ${other.data.accessToken}` } })).statusCode,
    ).toBe(401);
    expect((await t.call({ method: 'POST', url: '/api/v1/users/login', payload: { email: u.email, password: 'brand-new-pass' } })).statusCode).toBe(200);
  });

  it('answers "Old password is incorrect." for a wrong old password', async () => {
    const u = await t.signUp();
    const res = await t.call({
      method: 'PATCH',
      url: '/api/v1/users/change-password',
      as: u,
      payload: { oldPassword: 'not-it-at-all', newPassword: 'brand-new-pass' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.message).toBe('Old password is incorrect.');
    expect(
      (await t.call({ method: 'PATCH', url: '/api/v1/users/change-password', as: u, payload: { oldPassword: u.password, newPassword: 'short' } })).statusCode,
    ).toBe(400);
    expect((await t.call({ method: 'PATCH', url: '/api/v1/users/change-password', payload: { oldPassword: 'a', newPassword: 'bbbbbbbbb' } })).statusCode).toBe(
      401,
    );
  });
});

describe('DELETE /users/delete-account', () => {
  it('removes the user, their sessions and files, and clears the cookies', async () => {
    const u = await t.signUp();
    const avatar = await t.call({ method: 'PATCH', url: '/api/v1/users/change-avatar', as: u, payload: await multipart({}, { avatar: 'image.png' }) });
    expect(avatar.statusCode).toBe(200);
    expect(await t.ctx.storage.list(`users/${u.id}/`)).toHaveLength(1);
    const res = await t.call({ method: 'DELETE', url: '/api/v1/users/delete-account', as: u });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'refreshToken')?.value).toBe('');
    expect(await t.ctx.storage.list(`users/${u.id}/`)).toEqual([]);
    expect((await t.call({ method: 'GET', url: '/api/v1/users/user/current', as: u })).statusCode).toBe(401);
    expect((await t.call({ method: 'POST', url: '/api/v1/users/login', payload: { email: u.email, password: u.password } })).statusCode).toBe(401);
    expect(await t.ctx.db.selectFrom('sessions').where('user_id', '=', u.id).selectAll().execute()).toEqual([]);
    expect((await t.call({ method: 'DELETE', url: '/api/v1/users/delete-account' })).statusCode).toBe(401);
  });
});

describe('GET /users/channel/{channelName}', () => {
  it('shows a channel to anyone and 404s a missing one', async () => {
    const u = await t.signUp();
    const res = await t.call({ method: 'GET', url: `/api/v1/users/channel/${u.username.toUpperCase()}` });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ _id: u.id, username: u.username, subscribersCount: 0, videosCount: 0, isSubscribed: false });
    expect(res.data.email).toBeUndefined();
    expect((await t.call({ method: 'GET', url: '/api/v1/users/channel/nobody-here' })).statusCode).toBe(404);
    const own = await t.call({ method: 'GET', url: `/api/v1/users/channel/${u.username}`, as: u });
    expect(own.data.isSubscribed).toBe(false);
  });
});

describe('demo account', () => {
  it('is created at start-up, signs in with the configured credentials and cannot be changed or deleted', async () => {
    const demo = await createTestApp({ env: { DEMO_ACCOUNT: 'true', DEMO_EMAIL: 'try@example.com', DEMO_PASSWORD: 'try-it-out-123' } });
    try {
      const login = await demo.call({
        method: 'POST',
        url: '/api/v1/users/login',
        headers: { 'x-return-tokens': 'true' },
        payload: { email: 'try@example.com', password: 'try-it-out-123' },
      });
      expect(login.statusCode).toBe(200);
      const as = { accessToken: login.data.accessToken } as never;
      expect(
        (
          await demo.call({
            method: 'PATCH',
            url: '/api/v1/users/change-password',
            as,
            payload: { oldPassword: 'try-it-out-123', newPassword: 'another-pass' },
          })
        ).statusCode,
      ).toBe(403);
      expect((await demo.call({ method: 'PATCH', url: '/api/v1/users/update-account', as, payload: { username: 'hijacked' } })).statusCode).toBe(403);
      expect((await demo.call({ method: 'DELETE', url: '/api/v1/users/delete-account', as })).statusCode).toBe(403);
      expect((await demo.call({ method: 'PATCH', url: '/api/v1/users/update-account', as, payload: { fullName: 'Demo Visitor' } })).statusCode).toBe(200);
    } finally {
      await demo.close();
    }
  });
});
