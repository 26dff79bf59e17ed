import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passkeyCalls, TEST_ORIGIN as ORIGIN } from '../../../test/support/passkeys.js';
import { SoftwareAuthenticator } from '../../../test/support/software-authenticator.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

const API = '/api/v1';

let t: TestApp;
let calls: ReturnType<typeof passkeyCalls>;
beforeAll(async () => {
  t = await createTestApp();
  calls = passkeyCalls(t);
});
afterAll(async () => {
  await t?.close();
});

describe('POST /users/passkeys/registration-options', () => {
  it('is refused signed out (401)', async () => {
    expect((await t.call({ method: 'POST', url: `${API}/users/passkeys/registration-options` })).statusCode).toBe(401);
  });

  it('asks for a discoverable credential on this host, bound to the account, excluding the passkeys it has', async () => {
    const { u, key } = await calls.withPasskey();
    const res = await calls.registrationOptions(u);
    expect(res.statusCode).toBe(200);
    expect(res.data.rp.id).toBe('localhost');
    expect(Buffer.from(res.data.user.id, 'base64url').toString()).toBe(u.id);
    expect(res.data.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'preferred' });
    expect(res.data.attestation).toBe('none');
    expect(res.data.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([key.id]);
    // The challenge is kept server-side (any API process can check it), for 5 minutes.
    const row = await t.ctx.db.selectFrom('passkey_challenges').selectAll().where('challenge', '=', res.data.challenge).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ purpose: 'registration', user_id: u.id });
    expect(Number(row.expires_at) - Date.now()).toBeGreaterThan(4 * 60_000);
  });
});

describe('POST /users/passkeys', () => {
  it('is refused signed out (401)', async () => {
    const key = new SoftwareAuthenticator();
    const res = await t.call({
      method: 'POST',
      url: `${API}/users/passkeys`,
      payload: { response: key.register({ challenge: 'abc', rp: {}, user: { id: 'x' } }, ORIGIN) },
    });
    expect(res.statusCode).toBe(401);
  });

  it('stores the verified credential, named after the browser that added it', async () => {
    const { u, key, passkey } = await calls.withPasskey();
    expect(passkey.name).toBe('Chrome on Linux');
    const [row] = await calls.passkeyRows(u.id);
    expect(row).toMatchObject({ credential_id: key.id, transports: 'internal', name: 'Chrome on Linux', last_used_at: null });
    expect(Number(row!.counter)).toBe(0);
  });

  it('takes a given name', async () => {
    const u = await t.signUp();
    const key = new SoftwareAuthenticator();
    const options = await calls.registrationOptions(u);
    const res = await t.call({
      method: 'POST',
      url: `${API}/users/passkeys`,
      as: u,
      payload: { response: key.register(options.data, ORIGIN), name: '  Work laptop ' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({ name: 'Work laptop', lastUsedAt: null });
  });

  it('refuses bad input with a clear 400 and stores nothing', async () => {
    const u = await t.signUp();
    const key = new SoftwareAuthenticator();
    const options = await calls.registrationOptions(u);
    const good = key.register(options.data, ORIGIN);
    for (const response of [
      null,
      'text',
      { ...good, type: 'other' },
      { ...good, response: { ...good.response, attestationObject: 'not base64url!' } },
      { ...good, response: { ...good.response, attestationObject: Buffer.from('not cbor').toString('base64url') } },
      { ...good, response: { ...good.response, clientDataJSON: Buffer.from('{').toString('base64url') } },
    ]) {
      const res = await t.call({ method: 'POST', url: `${API}/users/passkeys`, as: u, payload: { response } });
      expect(res.statusCode, JSON.stringify(response)).toBe(400);
      expect(res.json().message).toMatch(/^[^\n]+$/);
    }
    const longName = await t.call({ method: 'POST', url: `${API}/users/passkeys`, as: u, payload: { response: good, name: 'x'.repeat(61) } });
    expect(longName.statusCode).toBe(400);
    expect(await calls.passkeyRows(u.id)).toEqual([]);
  });

  it('refuses a credential made for another origin or another host', async () => {
    const u = await t.signUp();
    const key = new SoftwareAuthenticator();
    const wrongOrigin = await t.call({
      method: 'POST',
      url: `${API}/users/passkeys`,
      as: u,
      payload: { response: key.register((await calls.registrationOptions(u)).data, 'https://evil.example') },
    });
    expect(wrongOrigin.statusCode).toBe(400);
    expect(wrongOrigin.json().message).toMatch(/origin/i);
    const wrongHost = await t.call({
      method: 'POST',
      url: `${API}/users/passkeys`,
      as: u,
      payload: { response: key.register((await calls.registrationOptions(u)).data, ORIGIN, { rpId: 'evil.example' }) },
    });
    expect(wrongHost.statusCode).toBe(400);
    expect(wrongHost.json().message).toMatch(/RP ID/i);
    expect(await calls.passkeyRows(u.id)).toEqual([]);
  });

  it('takes a challenge once, only from the account it was given to, and not after it expired', async () => {
    const u = await t.signUp();
    const other = await t.signUp();
    const options = (await calls.registrationOptions(u)).data;
    const add = (as: SignedIn, response: unknown) => t.call({ method: 'POST', url: `${API}/users/passkeys`, as, payload: { response } });

    expect((await add(other, new SoftwareAuthenticator().register(options, ORIGIN))).statusCode).toBe(400);
    expect(await calls.passkeyRows(other.id)).toEqual([]);

    expect((await add(u, new SoftwareAuthenticator().register(options, ORIGIN))).statusCode).toBe(201);
    const replay = await add(u, new SoftwareAuthenticator().register(options, ORIGIN));
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toMatch(/challenge/i);

    const stale = (await calls.registrationOptions(u)).data;
    await t.ctx.db
      .updateTable('passkey_challenges')
      .set({ expires_at: Date.now() - 1 })
      .where('challenge', '=', stale.challenge)
      .execute();
    expect((await add(u, new SoftwareAuthenticator().register(stale, ORIGIN))).statusCode).toBe(400);
    expect(await calls.passkeyRows(u.id)).toHaveLength(1);
  });

  it('is refused to the demo account, shared by strangers (403)', async () => {
    const u = await t.signUp();
    await t.ctx.db.updateTable('users').set({ is_demo: 1 }).where('id', '=', u.id).execute();
    t.services.sessions.accountChanged(u.id);
    const res = await calls.registrationOptions(u);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('The demo account cannot add passkeys');
  });

  it('refuses the same authenticator credential twice (409)', async () => {
    const { u, key } = await calls.withPasskey();
    const res = await t.call({
      method: 'POST',
      url: `${API}/users/passkeys`,
      as: u,
      payload: { response: key.register((await calls.registrationOptions(u)).data, ORIGIN) },
    });
    expect(res.statusCode).toBe(409);
    expect(await calls.passkeyRows(u.id)).toHaveLength(1);
  });
});

describe('GET /users/passkeys', () => {
  it('is refused signed out (401)', async () => {
    expect((await t.call({ method: 'GET', url: `${API}/users/passkeys` })).statusCode).toBe(401);
  });

  it("lists the account's own passkeys only, newest first, with when each was last used", async () => {
    const { u, key, passkey } = await calls.withPasskey();
    const other = await calls.withPasskey();
    expect((await calls.signIn(await calls.assertion(key))).statusCode).toBe(200);
    const res = await calls.list(u);
    expect(res.statusCode).toBe(200);
    expect(res.data).toHaveLength(1);
    expect(res.data[0]).toMatchObject({ _id: passkey._id, name: 'Chrome on Linux' });
    expect(Date.parse(res.data[0].lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await calls.list(other.u)).data.map((p: { _id: string }) => p._id)).toEqual([other.passkey._id]);
  });
});

describe('DELETE /users/passkeys/:passkeyId', () => {
  it('is refused signed out (401), for another account (404) and for a missing one (404)', async () => {
    const { u, passkey } = await calls.withPasskey();
    const other = await t.signUp();
    expect((await t.call({ method: 'DELETE', url: `${API}/users/passkeys/${passkey._id}` })).statusCode).toBe(401);
    expect((await t.call({ method: 'DELETE', url: `${API}/users/passkeys/${passkey._id}`, as: other })).statusCode).toBe(404);
    expect((await t.call({ method: 'DELETE', url: `${API}/users/passkeys/missing0000`, as: u })).statusCode).toBe(404);
    expect((await t.call({ method: 'DELETE', url: `${API}/users/passkeys/bad%20id`, as: u })).statusCode).toBe(400);
    expect(await calls.passkeyRows(u.id)).toHaveLength(1);
  });

  it('removes it for the owner, and it signs in no more', async () => {
    const { u, key, passkey } = await calls.withPasskey();
    const res = await t.call({ method: 'DELETE', url: `${API}/users/passkeys/${passkey._id}`, as: u });
    expect(res.statusCode).toBe(200);
    expect(await calls.passkeyRows(u.id)).toEqual([]);
    const again = await calls.signIn(await calls.assertion(key));
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe('This passkey is not known on this site');
  });
});

describe('the relying party', () => {
  it("is the request's host; a forwarded host is not taken from a proxy that is not trusted", async () => {
    const u = await t.signUp();
    const res = await t.call({ method: 'POST', url: `${API}/users/passkeys/registration-options`, as: u, headers: { 'x-forwarded-host': 'evil.example' } });
    expect(res.data.rp.id).toBe('localhost');
  });

  it('is the forwarded host and scheme behind a trusted proxy', async () => {
    const site = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      const u = await site.signUp();
      const forwarded = { 'x-forwarded-host': 'video.example.org', 'x-forwarded-proto': 'https' };
      const call = (url: string, payload?: unknown) => site.call({ method: 'POST', url: `${API}${url}`, as: u, headers: forwarded, payload });
      const options = (await call('/users/passkeys/registration-options')).data;
      expect(options.rp.id).toBe('video.example.org');
      expect((await call('/users/passkeys', { response: new SoftwareAuthenticator().register(options, 'https://video.example.org') })).statusCode).toBe(201);
    } finally {
      await site.close();
    }
  });

  it("is PUBLIC_URL's host when set: passkeys are made for that origin only", async () => {
    const site = await createTestApp({ env: { PUBLIC_URL: 'https://video.example.org' } });
    try {
      const u = await site.signUp();
      const options = async () => (await site.call({ method: 'POST', url: `${API}/users/passkeys/registration-options`, as: u })).data;
      const first = await options();
      expect(first.rp.id).toBe('video.example.org');
      const add = (response: unknown) => site.call({ method: 'POST', url: `${API}/users/passkeys`, as: u, payload: { response } });
      expect((await add(new SoftwareAuthenticator().register(first, ORIGIN))).statusCode).toBe(400);
      expect((await add(new SoftwareAuthenticator().register(await options(), 'https://video.example.org'))).statusCode).toBe(201);
    } finally {
      await site.close();
    }
  });
});
