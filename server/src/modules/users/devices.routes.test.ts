import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

const API = '/api/v1';
const LINUX_CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

interface Device {
  access: string;
  refresh: string;
}

/** Signs the account in once more, as a device with its own user agent and address. */
async function signIn(u: SignedIn, userAgent: string, address: string): Promise<Device> {
  const login = await t.call({
    method: 'POST',
    url: `${API}/users/login`,
    headers: { 'x-return-tokens': 'true', 'user-agent': userAgent },
    remoteAddress: address,
    payload: { email: u.email, password: u.password },
  });
  expect(login.statusCode).toBe(200);
  return { access: login.data.accessToken, refresh: login.data.refreshToken };
}

const bearer = (d: Device | SignedIn) => ({ authorization: `Bearer ${'access' in d ? d.access : d.accessToken}` });
const list = (d: Device | SignedIn) => t.call({ method: 'GET', url: `${API}/users/sessions`, headers: bearer(d) });
const signOut = (d: Device | SignedIn, id: string) => t.call({ method: 'DELETE', url: `${API}/users/sessions/${id}`, headers: bearer(d) });
const signOutOthers = (d: Device | SignedIn) => t.call({ method: 'DELETE', url: `${API}/users/sessions`, headers: bearer(d) });
const current = (d: Device | SignedIn) => t.call({ method: 'GET', url: `${API}/users/user/current`, headers: bearer(d) });
const refresh = (d: Device) => t.call({ method: 'POST', url: `${API}/users/refresh-token`, payload: { refreshToken: d.refresh } });

/** A fresh account signed in on a Linux desktop and an iPhone, from two addresses; the desktop is the newest. */
async function twoDevices() {
  const u = await t.signUp();
  const phone = await signIn(u, IPHONE_SAFARI, '198.51.100.20');
  const desktop = await signIn(u, LINUX_CHROME, '203.0.113.10');
  // The sign-up's own session is not one of the two: end it so the list is exactly them.
  expect((await t.call({ method: 'POST', url: `${API}/users/logout`, headers: bearer(u) })).statusCode).toBe(200);
  const devices = (await list(desktop)).data as { _id: string; current: boolean }[];
  const desktopId = devices.find((d) => d.current)!._id;
  const phoneId = devices.find((d) => !d.current)!._id;
  return { u, phone, desktop, desktopId, phoneId };
}

describe('GET /users/sessions', () => {
  it('is refused signed out (401)', async () => {
    const res = await t.call({ method: 'GET', url: `${API}/users/sessions` });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, statusCode: 401 });
  });

  it('lists the devices, most recently active first, with browser, system, address and which one is asking', async () => {
    const { desktop, phone } = await twoDevices();
    const res = await list(desktop);
    expect(res.statusCode).toBe(200);
    expect(res.message).toBe('Sessions fetched');
    expect(res.data).toHaveLength(2);
    expect(res.data[0]).toMatchObject({ browser: 'Chrome 156', system: 'Linux', device: 'desktop', address: '203.0.113.10', current: true });
    expect(res.data[1]).toMatchObject({ browser: 'Safari 18', system: 'iOS 18', device: 'mobile', address: '198.51.100.20', current: false });
    for (const d of res.data) {
      expect(Date.parse(d.createdAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(Date.parse(d.lastActiveAt)).toBeGreaterThanOrEqual(Date.parse(d.createdAt));
    }
    // Asked from the phone, the phone is the current one, and active now: it comes first.
    const fromPhone = await list(phone);
    expect(fromPhone.data.map((d: { current: boolean; system: string }) => [d.system, d.current])).toEqual([
      ['iOS 18', true],
      ['Linux', false],
    ]);
    expect(Date.parse(fromPhone.data[0].lastActiveAt)).toBeGreaterThan(Date.parse(fromPhone.data[1].lastActiveAt));
  });

  it('puts the other devices in the order of their activity, with the address each refreshed its tokens from', async () => {
    const { u, phone, desktop, phoneId } = await twoDevices();
    const third = await signIn(u, LINUX_CHROME, '203.0.113.12');
    const thirdId = (await list(third)).data[0]._id;
    // The third device signed in last; after the phone refreshes, the phone is the latest.
    expect((await list(desktop)).data.map((d: { _id: string }) => d._id).slice(1)).toEqual([thirdId, phoneId]);
    const rotated = await t.call({
      method: 'POST',
      url: `${API}/users/refresh-token`,
      headers: { 'x-return-tokens': 'true' },
      remoteAddress: '192.0.2.99',
      payload: { refreshToken: phone.refresh },
    });
    expect(rotated.statusCode).toBe(200);
    const res = await list(desktop);
    expect(res.data[0].current).toBe(true);
    expect(res.data.slice(1).map((d: { _id: string }) => d._id)).toEqual([phoneId, thirdId]);
    expect(res.data[1]).toMatchObject({ address: '192.0.2.99', current: false });
  });

  it('says "Unknown" for a user agent that tells nothing, and leaves out ended and expired sessions', async () => {
    const u = await t.signUp();
    const bare = await signIn(u, '', '203.0.113.30');
    const other = await signIn(u, LINUX_CHROME, '203.0.113.31');
    const res = await list(bare);
    expect(res.data).toHaveLength(3);
    expect(res.data.find((d: { current: boolean }) => d.current)).toMatchObject({
      browser: 'Unknown',
      system: 'Unknown',
      device: null,
      address: '203.0.113.30',
    });
    expect((await t.call({ method: 'POST', url: `${API}/users/logout`, headers: bearer(u) })).statusCode).toBe(200);
    expect((await list(bare)).data).toHaveLength(2);
    const otherId = (await list(other)).data.find((d: { current: boolean }) => d.current)._id;
    await t.ctx.db
      .updateTable('sessions')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', otherId)
      .execute();
    expect((await list(bare)).data).toHaveLength(1);
  });

  it("never shows another account's devices", async () => {
    const a = await twoDevices();
    const b = await twoDevices();
    const ids = (await list(a.desktop)).data.map((d: { _id: string }) => d._id);
    expect(ids.sort()).toEqual([a.desktopId, a.phoneId].sort());
    expect(ids).not.toContain(b.phoneId);
  });
});

describe('DELETE /users/sessions/:sessionId', () => {
  it('is refused signed out (401), and the device stays signed in', async () => {
    const { phone, phoneId } = await twoDevices();
    const res = await t.call({ method: 'DELETE', url: `${API}/users/sessions/${phoneId}` });
    expect(res.statusCode).toBe(401);
    expect((await current(phone)).statusCode).toBe(200);
  });

  it("answers 404 for another account's session, which stays signed in", async () => {
    const victim = await twoDevices();
    const other = await t.signUp();
    expect((await current(victim.phone)).statusCode).toBe(200);
    const res = await signOut(other, victim.phoneId);
    expect(res.statusCode).toBe(404);
    expect(res.message).toBe('Session not found');
    expect((await current(victim.phone)).statusCode).toBe(200);
    expect((await refresh(victim.phone)).statusCode).toBe(200);
  });

  it('answers 404 for a missing or already ended session, and 400 for a malformed id', async () => {
    const { desktop, phone, phoneId } = await twoDevices();
    const missing = await signOut(desktop, 'AAAAAAAAAAAAAAAAAAAAAAAA');
    expect(missing.statusCode).toBe(404);
    expect(missing.message).toBe('Session not found');
    expect((await signOut(phone, phoneId)).statusCode).toBe(400);
    expect((await signOut(desktop, phoneId)).statusCode).toBe(200);
    expect((await signOut(desktop, phoneId)).statusCode).toBe(404);
    const bad = await signOut(desktop, '..%2Fx');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, statusCode: 400 });
  });

  it('refuses the device asking (400: it signs out with logout) and keeps it signed in', async () => {
    const { desktop, desktopId } = await twoDevices();
    const res = await signOut(desktop, desktopId);
    expect(res.statusCode).toBe(400);
    expect(res.message).toMatch(/sign out instead/);
    expect((await current(desktop)).statusCode).toBe(200);
  });

  it('signs the device out at once: its access token gets 401 on the next request and its refresh token is refused', async () => {
    const { desktop, phone, phoneId } = await twoDevices();
    // Used just before, so this process remembers it as alive.
    expect((await current(phone)).statusCode).toBe(200);
    const res = await signOut(desktop, phoneId);
    expect(res.statusCode).toBe(200);
    expect(res.message).toBe('Session signed out');
    expect((await current(phone)).statusCode).toBe(401);
    expect((await refresh(phone)).statusCode).toBe(401);
    expect((await current(desktop)).statusCode).toBe(200);
    expect((await list(desktop)).data.map((d: { _id: string }) => d._id)).not.toContain(phoneId);
  });
});

describe('DELETE /users/sessions', () => {
  it('is refused signed out (401)', async () => {
    const { phone } = await twoDevices();
    expect((await t.call({ method: 'DELETE', url: `${API}/users/sessions` })).statusCode).toBe(401);
    expect((await current(phone)).statusCode).toBe(200);
  });

  it('signs out every other device of the account, keeps the one asking, and leaves other accounts alone', async () => {
    const { u, desktop, phone, desktopId } = await twoDevices();
    const third = await signIn(u, LINUX_CHROME, '203.0.113.11');
    const bystander = await twoDevices();
    expect((await current(phone)).statusCode).toBe(200);
    const res = await signOutOthers(desktop);
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ signedOut: 2 });
    expect((await current(phone)).statusCode).toBe(401);
    expect((await current(third)).statusCode).toBe(401);
    expect((await refresh(phone)).statusCode).toBe(401);
    expect((await current(desktop)).statusCode).toBe(200);
    expect((await list(desktop)).data.map((d: { _id: string }) => d._id)).toEqual([desktopId]);
    expect((await current(bystander.phone)).statusCode).toBe(200);
    // Nothing left to sign out.
    expect((await signOutOthers(desktop)).data).toEqual({ signedOut: 0 });
  });
});

describe('the demo account', () => {
  it('sees only the device asking and may not sign out the others (they are other people)', async () => {
    const { u, desktop, phone, desktopId, phoneId } = await twoDevices();
    await t.ctx.db.updateTable('users').set({ is_demo: 1 }).where('id', '=', u.id).execute();
    t.services.sessions.accountChanged(u.id);
    const res = await list(desktop);
    expect(res.statusCode).toBe(200);
    expect(res.data.map((d: { _id: string }) => d._id)).toEqual([desktopId]);
    expect(res.data[0].current).toBe(true);
    expect((await signOut(desktop, phoneId)).statusCode).toBe(403);
    expect((await signOutOthers(desktop)).statusCode).toBe(403);
    expect((await current(phone)).statusCode).toBe(200);
  });
});

describe('behind a trusted proxy (TRUST_PROXY=1)', () => {
  it("records the client's address from X-Forwarded-For, not the proxy's", async () => {
    const proxied = await createTestApp({ env: { TRUST_PROXY: '1' } });
    try {
      const u = await proxied.signUp();
      const login = await proxied.call({
        method: 'POST',
        url: `${API}/users/login`,
        headers: { 'x-return-tokens': 'true', 'x-forwarded-for': '198.51.100.77' },
        remoteAddress: '127.0.0.1',
        payload: { email: u.email, password: u.password },
      });
      expect(login.statusCode).toBe(200);
      const res = await proxied.call({ method: 'GET', url: `${API}/users/sessions`, headers: { authorization: `Bearer ${login.data.accessToken}` } });
      expect(res.data.find((d: { current: boolean }) => d.current).address).toBe('198.51.100.77');
    } finally {
      await proxied.close();
    }
  });
});
