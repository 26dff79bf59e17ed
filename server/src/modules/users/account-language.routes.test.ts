import { LANGUAGES } from '@reelhouse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAs } from '../../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

const API = '/api/v1';
const REFUSAL = 'language must be one of en, fr, es, de, pt-BR, ja, ar, or null to forget the choice';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const setLanguage = (payload: unknown, as?: SignedIn) =>
  t.call({ method: 'PATCH', url: `${API}/users/language`, payload: payload as object, ...(as ? { as } : {}) });
const current = (as: SignedIn) => t.call({ method: 'GET', url: `${API}/users/user/current`, as });
const stored = async (id: string) => (await t.ctx.db.selectFrom('users').select('language').where('id', '=', id).executeTakeFirstOrThrow()).language;

describe('PATCH /users/language', () => {
  it('is refused signed out (401), and nothing changes', async () => {
    const res = await setLanguage({ language: 'fr' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, statusCode: 401 });
  });

  it('starts as null: no language chosen', async () => {
    const u = await t.signUp();
    const me = await current(u);
    expect(me.statusCode).toBe(200);
    expect(me.data.language).toBeNull();
    expect(await stored(u.id)).toBeNull();
  });

  it.each(LANGUAGES)('keeps %s, answers it, and the current user shows it after', async (language) => {
    const u = await t.signUp();
    const res = await setLanguage({ language }, u);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ statusCode: 200, data: { language }, message: 'Language updated', success: true });
    expect((await current(u)).data.language).toBe(language);
    expect(await stored(u.id)).toBe(language);
  });

  it('forgets the choice with null', async () => {
    const u = await t.signUp();
    await setLanguage({ language: 'ja' }, u);
    const res = await setLanguage({ language: null }, u);
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ language: null });
    expect((await current(u)).data.language).toBeNull();
    expect(await stored(u.id)).toBeNull();
  });

  it.each([
    ['a language the site does not speak', { language: 'it' }],
    ['a region the site does not ship', { language: 'pt-PT' }],
    ['another spelling of a code', { language: 'FR' }],
    ['a tag with a region where the code has none', { language: 'fr-CA' }],
    ['an empty string', { language: '' }],
    ['a number', { language: 7 }],
    ['a list', { language: ['fr'] }],
    ['no language at all', {}],
  ])('refuses %s (400) with the codes it takes, and keeps the choice', async (_, payload) => {
    const u = await t.signUp();
    await setLanguage({ language: 'de' }, u);
    const res = await setLanguage(payload, u);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, statusCode: 400 });
    expect(res.json().message).toContain(REFUSAL);
    expect(await stored(u.id)).toBe('de');
  });

  it("sets only the caller's own account: another user does not see it", async () => {
    const owner = await t.signUp();
    const other = await t.signUp();
    await setLanguage({ language: 'ar' }, owner);
    expect((await current(owner)).data.language).toBe('ar');
    expect((await current(other)).data.language).toBeNull();
    // The channel others see says nothing of it.
    const channel = await t.call({ method: 'GET', url: `${API}/users/channel/${owner.username}`, as: other });
    expect(channel.statusCode).toBe(200);
    expect(channel.data).not.toHaveProperty('language');
  });

  it.each(['moderator', 'admin'] as const)('works the same for staff (%s), on their own account only', async (role) => {
    const staff = await signUpAs(t, role);
    const user = await t.signUp();
    const res = await setLanguage({ language: 'es' }, staff);
    expect(res.statusCode).toBe(200);
    expect(await stored(staff.id)).toBe('es');
    expect(await stored(user.id)).toBeNull();
  });

  it('is returned at sign-in and by an account update too', async () => {
    const u = await t.signUp();
    await setLanguage({ language: 'pt-BR' }, u);
    const login = await t.call({ method: 'POST', url: `${API}/users/login`, payload: { email: u.email, password: u.password } });
    expect(login.data.user.language).toBe('pt-BR');
    const updated = await t.call({ method: 'PATCH', url: `${API}/users/update-account`, as: u, payload: { fullName: 'Renamed' } });
    expect(updated.data.language).toBe('pt-BR');
  });

  it('is refused for the shared demo account (403), whose visitors would inherit each other’s choice', async () => {
    const u = await t.signUp();
    await t.ctx.db.updateTable('users').set({ is_demo: 1 }).where('id', '=', u.id).execute();
    const res = await setLanguage({ language: 'fr' }, u);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('The demo account cannot change its language');
    expect(await stored(u.id)).toBeNull();
  });
});
