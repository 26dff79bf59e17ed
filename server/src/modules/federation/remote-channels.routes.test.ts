import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackPort } from '../../../test/support/federation-site.js';
import { staffCallers } from '../../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

const API = '/api/v1';
const ORIGIN = 'http://reelhouse.test';
let t: TestApp;
let staff: Awaited<ReturnType<typeof staffCallers>>;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: ORIGIN, FEDERATION_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  staff = await staffCallers(t);
});
afterAll(async () => {
  await t?.close();
});

const lookup = (as: SignedIn | undefined, handle?: string) =>
  t.call({ method: 'GET', url: `${API}/federation/lookup${handle === undefined ? '' : `?handle=${encodeURIComponent(handle)}`}`, as });
const remoteAccounts = () => t.ctx.db.selectFrom('users').select('id').where('remote_actor_id', 'is not', null).execute();

describe('GET /federation/lookup', () => {
  it('is for signed-in people: signed out gets 401 and nothing is fetched or kept', async () => {
    const res = await lookup(undefined, '@someone@video.example.com');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, data: null });
    expect(await remoteAccounts()).toEqual([]);
  });

  it('refuses what is not a handle or an address with 400 and the rule', async () => {
    for (const handle of [undefined, '', 'just words', 'no-at-sign', '@a@b@c', 'ftp://video.example.com/x']) {
      const res = await lookup(staff.user, handle);
      expect(res.statusCode, String(handle)).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, success: false });
      expect(res.json().data.errors[0].path).toBe('handle');
    }
    expect((await lookup(staff.user, 'x y@z')).json().message).toMatch(/handle must be a handle such as @channel@video\.example\.com/);
    expect((await lookup(staff.user, `@${'a'.repeat(500)}@video.example.com`)).statusCode).toBe(400);
  });

  it("answers a handle of this site with the site's own channel, for every role", async () => {
    for (const who of [staff.user, staff.moderator, staff.admin]) {
      const res = await lookup(who, `@${staff.user.username}@reelhouse.test`);
      expect(res.statusCode).toBe(200);
      expect(res.data).toMatchObject({ _id: staff.user.id, username: staff.user.username, isSubscribed: false });
      expect(res.data.remote).toBeUndefined();
    }
    expect((await lookup(staff.user, '@nobody-here@reelhouse.test')).statusCode).toBe(404);
  });

  it('answers 404 when nothing answers at the address, and keeps nothing', async () => {
    const port = await loopbackPort('127.0.0.9');
    const res = await lookup(staff.user, `http://127.0.0.9:${port}/ap/channels/gone`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ statusCode: 404, data: null, message: 'Channel not found', success: false });
    expect(await remoteAccounts()).toEqual([]);
  });

  it('refuses a blocked server with 422 and its name, before asking it anything', async () => {
    expect((await t.call({ method: 'POST', url: `${API}/admin/federation/blocks`, payload: { domain: 'spam.example' }, as: staff.admin })).statusCode).toBe(
      201,
    );
    for (const handle of ['@troll@spam.example', '@troll@video.spam.example', 'https://spam.example/ap/channels/1']) {
      const res = await lookup(staff.user, handle);
      expect(res.statusCode, handle).toBe(422);
      expect(res.json().message).toMatch(/spam\.example is blocked here/);
    }
    expect(await remoteAccounts()).toEqual([]);
  });

  it('is not served by a site that does not federate', async () => {
    const closed = await createTestApp();
    try {
      const user = await closed.signUp();
      expect(
        (await closed.call({ method: 'GET', url: `${API}/federation/lookup?handle=${encodeURIComponent('@a@video.example.com')}`, as: user })).statusCode,
      ).toBe(404);
    } finally {
      await closed.close();
    }
  });
});
