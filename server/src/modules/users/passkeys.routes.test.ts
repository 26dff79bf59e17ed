import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { SoftwareAuthenticator } from '../../../test/support/software-authenticator.js';

const API = '/api/v1';
// What a browser on the test app's own address (Host: localhost:80) names as its origin.
const ORIGIN = 'http://localhost';
const LINUX_CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const registrationOptions = (u: SignedIn) => t.call({ method: 'POST', url: `${API}/users/passkeys/registration-options`, as: u });
const authenticationOptions = () => t.call({ method: 'POST', url: `${API}/users/passkeys/authentication-options` });
const list = (u: SignedIn) => t.call({ method: 'GET', url: `${API}/users/passkeys`, as: u });
const signIn = (response: unknown, headers: Record<string, string> = {}) =>
  t.call({ method: 'POST', url: `${API}/users/login/passkey`, payload: { response }, headers });
const passkeyRows = (userId: string) => t.ctx.db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).execute();

/** A fresh account with a passkey added from Chrome on Linux. */
async function withPasskey() {
  const u = await t.signUp();
  const key = new SoftwareAuthenticator();
  const options = await registrationOptions(u);
  expect(options.statusCode).toBe(200);
  const added = await t.call({
    method: 'POST',
    url: `${API}/users/passkeys`,
    as: u,
    headers: { 'user-agent': LINUX_CHROME },
    payload: { response: key.register(options.data, ORIGIN) },
  });
  expect(added.statusCode).toBe(201);
  return { u, key, passkey: added.data as { _id: string; name: string } };
}

async function assertion(key: SoftwareAuthenticator, origin = ORIGIN, opts: { counter?: number } = {}) {
  const options = await authenticationOptions();
  expect(options.statusCode).toBe(200);
  return key.assert(options.data, origin, opts);
}

describe('POST /users/passkeys/registration-options', () => {
  it('is refused signed out (401)', async () => {
    expect((await t.call({ method: 'POST', url: `${API}/users/passkeys/registration-options` })).statusCode).toBe(401);
  });

  it('asks for a discoverable credential on this host, bound to the account, excluding the passkeys it has', async () => {
    const { u, key } = await withPasskey();
    const res = await registrationOptions(u);
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
    const { u, key, passkey } = await withPasskey();
    expect(passkey.name).toBe('Chrome on Linux');
    const [row] = await passkeyRows(u.id);
    expect(row).toMatchObject({ credential_id: key.id, transports: 'internal', name: 'Chrome on Linux', last_used_at: null });
    expect(Number(row!.counter)).toBe(0);
  });

  it('takes a given name', async () => {
    const u = await t.signUp();
    const key = new SoftwareAuthenticator();
    const options = await registrationOptions(u);
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
    const options = await registrationOptions(u);
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
    expect(await passkeyRows(u.id)).toEqual([]);
  });

  it('refuses a credential made for another origin or another host', async () => {
    const u = await t.signUp();
    const key = new SoftwareAuthenticator();
    const wrongOrigin = await t.call({
      method: 'POST',
      url: `${API}/users/passkeys`,
      as: u,
      payload: { response: key.register((await registrationOptions(u)).data, 'https://evil.example') },
    });
    expect(wrongOrigin.statusCode).toBe(400);
    expect(wrongOrigin.json().message).toMatch(/origin/i);
    const wrongHost = await t.call({
      method: 'POST',
      url: `${API}/users/passkeys`,
      as: u,
      payload: { response: key.register((await registrationOptions(u)).data, ORIGIN, { rpId: 'evil.example' }) },
    });
    expect(wrongHost.statusCode).toBe(400);
    expect(wrongHost.json().message).toMatch(/RP ID/i);
    expect(await passkeyRows(u.id)).toEqual([]);
  });

  it('takes a challenge once, only from the account it was given to, and not after it expired', async () => {
    const u = await t.signUp();
    const other = await t.signUp();
    const options = (await registrationOptions(u)).data;
    const add = (as: SignedIn, response: unknown) => t.call({ method: 'POST', url: `${API}/users/passkeys`, as, payload: { response } });

    expect((await add(other, new SoftwareAuthenticator().register(options, ORIGIN))).statusCode).toBe(400);
    expect(await passkeyRows(other.id)).toEqual([]);

    expect((await add(u, new SoftwareAuthenticator().register(options, ORIGIN))).statusCode).toBe(201);
    const replay = await add(u, new SoftwareAuthenticator().register(options, ORIGIN));
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toMatch(/challenge/i);

    const stale = (await registrationOptions(u)).data;
    await t.ctx.db
      .updateTable('passkey_challenges')
      .set({ expires_at: Date.now() - 1 })
      .where('challenge', '=', stale.challenge)
      .execute();
    expect((await add(u, new SoftwareAuthenticator().register(stale, ORIGIN))).statusCode).toBe(400);
    expect(await passkeyRows(u.id)).toHaveLength(1);
  });

  it('is refused to the demo account, shared by strangers (403)', async () => {
    const u = await t.signUp();
    await t.ctx.db.updateTable('users').set({ is_demo: 1 }).where('id', '=', u.id).execute();
    t.services.sessions.accountChanged(u.id);
    const res = await registrationOptions(u);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('The demo account cannot add passkeys');
  });

  it('refuses the same authenticator credential twice (409)', async () => {
    const { u, key } = await withPasskey();
    const res = await t.call({
      method: 'POST',
      url: `${API}/users/passkeys`,
      as: u,
      payload: { response: key.register((await registrationOptions(u)).data, ORIGIN) },
    });
    expect(res.statusCode).toBe(409);
    expect(await passkeyRows(u.id)).toHaveLength(1);
  });
});

describe('GET /users/passkeys', () => {
  it('is refused signed out (401)', async () => {
    expect((await t.call({ method: 'GET', url: `${API}/users/passkeys` })).statusCode).toBe(401);
  });

  it("lists the account's own passkeys only, newest first, with when each was last used", async () => {
    const { u, key, passkey } = await withPasskey();
    const other = await withPasskey();
    expect((await signIn(await assertion(key))).statusCode).toBe(200);
    const res = await list(u);
    expect(res.statusCode).toBe(200);
    expect(res.data).toHaveLength(1);
    expect(res.data[0]).toMatchObject({ _id: passkey._id, name: 'Chrome on Linux' });
    expect(Date.parse(res.data[0].lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await list(other.u)).data.map((p: { _id: string }) => p._id)).toEqual([other.passkey._id]);
  });
});

describe('DELETE /users/passkeys/:passkeyId', () => {
  it('is refused signed out (401), for another account (404) and for a missing one (404)', async () => {
    const { u, passkey } = await withPasskey();
    const other = await t.signUp();
    expect((await t.call({ method: 'DELETE', url: `${API}/users/passkeys/${passkey._id}` })).statusCode).toBe(401);
    expect((await t.call({ method: 'DELETE', url: `${API}/users/passkeys/${passkey._id}`, as: other })).statusCode).toBe(404);
    expect((await t.call({ method: 'DELETE', url: `${API}/users/passkeys/missing0000`, as: u })).statusCode).toBe(404);
    expect((await t.call({ method: 'DELETE', url: `${API}/users/passkeys/bad%20id`, as: u })).statusCode).toBe(400);
    expect(await passkeyRows(u.id)).toHaveLength(1);
  });

  it('removes it for the owner, and it signs in no more', async () => {
    const { u, key, passkey } = await withPasskey();
    const res = await t.call({ method: 'DELETE', url: `${API}/users/passkeys/${passkey._id}`, as: u });
    expect(res.statusCode).toBe(200);
    expect(await passkeyRows(u.id)).toEqual([]);
    const again = await signIn(await assertion(key));
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe('This passkey is not known on this site');
  });
});

describe('POST /users/login/passkey', () => {
  it('offers options for any account: no list of credentials, a challenge kept server-side', async () => {
    const res = await authenticationOptions();
    expect(res.statusCode).toBe(200);
    expect(res.data.rpId).toBe('localhost');
    expect(res.data.allowCredentials ?? []).toEqual([]);
    expect(res.data.userVerification).toBe('preferred');
    const row = await t.ctx.db.selectFrom('passkey_challenges').selectAll().where('challenge', '=', res.data.challenge).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ purpose: 'authentication', user_id: null });
  });

  it('signs in as the password sign-in does: cookies, the user, tokens only when asked', async () => {
    const { u, key } = await withPasskey();
    const res = await signIn(await assertion(key));
    expect(res.statusCode).toBe(200);
    expect(res.message).toBe('User logged in successfully');
    expect(res.data.user).toMatchObject({ _id: u.id, username: u.username, email: u.email });
    expect(res.data.accessToken).toBeUndefined();
    expect(res.cookies.map((c) => c.name).sort()).toEqual(['accessToken', 'refreshToken']);
    const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const me = await t.call({ method: 'GET', url: `${API}/users/user/current`, headers: { cookie } });
    expect(me.data._id).toBe(u.id);

    const withTokens = await signIn(await assertion(key), { 'x-return-tokens': 'true' });
    expect(withTokens.statusCode).toBe(200);
    const bearer = await t.call({ method: 'GET', url: `${API}/users/user/current`, headers: { authorization: `Bearer ${withTokens.data.accessToken}` } });
    expect(bearer.data._id).toBe(u.id);
    expect(typeof withTokens.data.refreshToken).toBe('string');
    expect(Number((await passkeyRows(u.id))[0]!.counter)).toBe(2);
  });

  it('refuses a replayed answer (its challenge is spent) and a counter that did not move on', async () => {
    const { u, key } = await withPasskey();
    const first = await assertion(key);
    expect((await signIn(first)).statusCode).toBe(200);
    const replay = await signIn(first);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toMatch(/challenge/i);

    // A fresh challenge, but the counter of the last sign-in: a cloned key.
    const cloned = await signIn(await assertion(key, ORIGIN, { counter: 1 }));
    expect(cloned.statusCode).toBe(401);
    expect(cloned.json().message).toMatch(/counter/i);
    expect(Number((await passkeyRows(u.id))[0]!.counter)).toBe(1);
  });

  it('refuses another origin, an unknown credential, a forged signature and another account named by the handle', async () => {
    const { key } = await withPasskey();
    const other = await withPasskey();
    const wrongOrigin = await signIn(await assertion(key, 'https://evil.example'));
    expect(wrongOrigin.statusCode).toBe(401);
    expect(wrongOrigin.json().message).toMatch(/origin/i);

    expect((await signIn(await assertion(new SoftwareAuthenticator()))).statusCode).toBe(401);

    const forged = await assertion(key);
    const otherSig = await assertion(other.key);
    expect((await signIn({ ...forged, response: { ...forged.response, signature: otherSig.response.signature } })).statusCode).toBe(401);

    const swapped = await assertion(key);
    const handle = await signIn({ ...swapped, response: { ...swapped.response, userHandle: other.key.userHandle } });
    expect(handle.statusCode).toBe(401);
  });

  it('refuses bad input with a clear 400', async () => {
    for (const payload of [{}, { response: null }, { response: { id: 'x' } }, { response: 'abc' }]) {
      const res = await t.call({ method: 'POST', url: `${API}/users/login/passkey`, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it('refuses banned accounts and accounts waiting for approval, as the password sign-in does', async () => {
    const banned = await withPasskey();
    await t.ctx.db.updateTable('users').set({ banned_at: Date.now(), ban_reason: 'spam' }).where('id', '=', banned.u.id).execute();
    const res = await signIn(await assertion(banned.key));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This account is banned');

    const pending = await withPasskey();
    await t.ctx.db.updateTable('users').set({ approval_pending: 1 }).where('id', '=', pending.u.id).execute();
    const waiting = await signIn(await assertion(pending.key));
    expect(waiting.statusCode).toBe(403);
    expect(waiting.json().message).toMatch(/approve/);
    expect(res.cookies).toEqual([]);
  });
});
