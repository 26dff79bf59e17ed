import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passkeyCalls, TEST_ORIGIN as ORIGIN } from '../../../test/support/passkeys.js';
import { SoftwareAuthenticator } from '../../../test/support/software-authenticator.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';

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

describe('POST /users/login/passkey', () => {
  it('offers options for any account: no list of credentials, a challenge kept server-side', async () => {
    const res = await calls.authenticationOptions();
    expect(res.statusCode).toBe(200);
    expect(res.data.rpId).toBe('localhost');
    expect(res.data.allowCredentials ?? []).toEqual([]);
    expect(res.data.userVerification).toBe('preferred');
    const row = await t.ctx.db.selectFrom('passkey_challenges').selectAll().where('challenge', '=', res.data.challenge).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ purpose: 'authentication', user_id: null });
  });

  it('signs in as the password sign-in does: cookies, the user, tokens only when asked', async () => {
    const { u, key } = await calls.withPasskey();
    const res = await calls.signIn(await calls.assertion(key));
    expect(res.statusCode).toBe(200);
    expect(res.message).toBe('User logged in successfully');
    expect(res.data.user).toMatchObject({ _id: u.id, username: u.username, email: u.email });
    expect(res.data.accessToken).toBeUndefined();
    expect(res.cookies.map((c) => c.name).sort()).toEqual(['accessToken', 'refreshToken']);
    const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const me = await t.call({ method: 'GET', url: `${API}/users/user/current`, headers: { cookie } });
    expect(me.data._id).toBe(u.id);

    const withTokens = await calls.signIn(await calls.assertion(key), { 'x-return-tokens': 'true' });
    expect(withTokens.statusCode).toBe(200);
    const bearer = await t.call({ method: 'GET', url: `${API}/users/user/current`, headers: { authorization: `Bearer ${withTokens.data.accessToken}` } });
    expect(bearer.data._id).toBe(u.id);
    expect(typeof withTokens.data.refreshToken).toBe('string');
    expect(Number((await calls.passkeyRows(u.id))[0]!.counter)).toBe(2);
  });

  it('refuses a replayed answer (its challenge is spent) and a counter that did not move on', async () => {
    const { u, key } = await calls.withPasskey();
    const first = await calls.assertion(key);
    expect((await calls.signIn(first)).statusCode).toBe(200);
    const replay = await calls.signIn(first);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toMatch(/challenge/i);

    // A fresh challenge, but the counter of the last sign-in: a cloned key.
    const cloned = await calls.signIn(await calls.assertion(key, ORIGIN, { counter: 1 }));
    expect(cloned.statusCode).toBe(401);
    expect(cloned.json().message).toMatch(/counter/i);
    expect(Number((await calls.passkeyRows(u.id))[0]!.counter)).toBe(1);
  });

  it('refuses another origin, an unknown credential, a forged signature and another account named by the handle', async () => {
    const { key } = await calls.withPasskey();
    const other = await calls.withPasskey();
    const wrongOrigin = await calls.signIn(await calls.assertion(key, 'https://evil.example'));
    expect(wrongOrigin.statusCode).toBe(401);
    expect(wrongOrigin.json().message).toMatch(/origin/i);

    expect((await calls.signIn(await calls.assertion(new SoftwareAuthenticator()))).statusCode).toBe(401);

    const forged = await calls.assertion(key);
    const otherSig = await calls.assertion(other.key);
    expect((await calls.signIn({ ...forged, response: { ...forged.response, signature: otherSig.response.signature } })).statusCode).toBe(401);

    const swapped = await calls.assertion(key);
    const handle = await calls.signIn({ ...swapped, response: { ...swapped.response, userHandle: other.key.userHandle } });
    expect(handle.statusCode).toBe(401);
  });

  it('refuses bad input with a clear 400', async () => {
    for (const payload of [{}, { response: null }, { response: { id: 'x' } }, { response: 'abc' }]) {
      const res = await t.call({ method: 'POST', url: `${API}/users/login/passkey`, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it('refuses banned accounts and accounts waiting for approval, as the password sign-in does', async () => {
    const banned = await calls.withPasskey();
    await t.ctx.db.updateTable('users').set({ banned_at: Date.now(), ban_reason: 'spam' }).where('id', '=', banned.u.id).execute();
    const res = await calls.signIn(await calls.assertion(banned.key));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This account is banned');

    const pending = await calls.withPasskey();
    await t.ctx.db.updateTable('users').set({ approval_pending: 1 }).where('id', '=', pending.u.id).execute();
    const waiting = await calls.signIn(await calls.assertion(pending.key));
    expect(waiting.statusCode).toBe(403);
    expect(waiting.json().message).toMatch(/approve/);
    expect(res.cookies).toEqual([]);
  });
});
