import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoutes, createWorld, fillUrl, queryString, type AppRoute, type ValidCall, type World } from '../route-fixtures/index.js';
import { multipart, createTestApp, type SignedIn, type TestApp } from '../support/test-app.js';

/**
 * Every state-changing route of the route table, tried as each kind of caller: signed out, as
 * another user, as a moderator and an admin (no role may change someone else's things), and as the
 * owner. After every refused attempt the resource reads back exactly as before.
 *
 * Routes open to anyone (sign-up, sign-in, refresh, sign-out, counting a view) only get the owner
 * column. Routes that act on the caller's own account or own like/subscription ("self") name no one
 * else's resource, so the other-user and role columns do not apply to them. Staff routes refuse
 * everyone below their role.
 */

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

let t: TestApp;
let world: World;
/** For the refusal columns: refused calls change no account, so a few accounts can serve every fixture. */
let pooled: World;
let routes: AppRoute[];
let other: SignedIn;
let moderator: SignedIn;
let admin: SignedIn;

beforeAll(async () => {
  // SMTP_URL turns the mail routes on; jobs do not run in this app, so nothing is sent.
  t = await createTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
  world = createWorld(t);
  pooled = createWorld(t, { userPool: 6 });
  routes = appRoutes(t.app).routes.filter((r) => r.fixture && MUTATING.has(r.method));
  [other, moderator, admin] = [await t.signUp(), await t.signUp(), await t.signUp()];
  await t.ctx.db.updateTable('users').set({ role: 'moderator' }).where('id', '=', moderator.id).execute();
  await t.ctx.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
}, 120_000);

afterAll(async () => {
  await t?.close();
});

type Caller = { bearer: SignedIn } | { signedOut: true } | { cookies: SignedIn; origin: string };

async function send(r: AppRoute, v: ValidCall, caller: Caller) {
  const payload = v.fields || v.files ? await multipart(v.fields ?? {}, v.files ?? {}) : (v.body ?? v.json);
  return t.call({
    method: r.method as 'POST',
    url: fillUrl(r.url, v.params) + queryString(v.query),
    ...(v.headers ? { headers: v.headers } : {}),
    ...(payload !== undefined ? { payload } : {}),
    ...('bearer' in caller ? { as: caller.bearer } : {}),
    ...('cookies' in caller ? { cookies: caller.cookies.cookies, headers: { origin: caller.origin } } : {}),
  });
}

describe('authorization matrix of the state-changing routes', () => {
  it('covers every state-changing route with a fixture', () => {
    expect(routes.length).toBeGreaterThan(20);
  });

  it.each([
    ['signed out', 'signedOut'],
    ['another user', 'other'],
    ['a moderator', 'moderator'],
    ['an admin', 'admin'],
  ] as const)(
    '%s is refused and changes nothing',
    async (_label, who) => {
      const failures: string[] = [];
      for (const r of routes) {
        const access = r.fixture!.access;
        if (access === 'public' || access === 'self') {
          if (access === 'public' || who !== 'signedOut') continue;
        }
        // Staff routes: users (and, for admin routes, moderators) are refused; the roles they are for
        // are served, which the owner column shows.
        if (access === 'moderator' && (who === 'moderator' || who === 'admin')) continue;
        if (access === 'admin' && who === 'admin') continue;
        if (r.fixture!.adminsToo && who === 'admin') continue;
        if (r.fixture!.staffToo && (who === 'admin' || who === 'moderator')) continue;
        const v = await r.fixture!.valid(pooled);
        const before = await v.readBack?.();
        const caller: Caller = who === 'signedOut' ? { signedOut: true } : { bearer: { other, moderator, admin }[who] };
        const res = await send(r, v, caller);
        const allowed = who === 'signedOut' ? [401] : access === 'owner' ? [403, 404] : [403];
        if (!allowed.includes(res.statusCode)) failures.push(`${r.key}: ${res.statusCode} ${res.body.slice(0, 160)}`);
        if (res.json().success !== false) failures.push(`${r.key}: answer is not a refusal envelope`);
        if (v.readBack) {
          const after = await v.readBack();
          try {
            expect(after).toEqual(before);
          } catch {
            failures.push(`${r.key}: changed by a refused call`);
          }
        }
      }
      expect(failures).toEqual([]);
    },
    600_000,
  );

  /**
   * A signed-in browser tricked by another site: the owner's own cookies, a foreign Origin. Bearer
   * calls are exempt (a page cannot make a browser add one), so this column is cookies only.
   */
  it("with the owner's cookies but a foreign Origin, a state-changing call is refused (403) and changes nothing", async () => {
    const failures: string[] = [];
    for (const r of routes) {
      if (r.fixture!.access === 'public') continue;
      const v = await r.fixture!.valid(pooled);
      if (!v.as) continue;
      const before = await v.readBack?.();
      const res = await send(r, v, { cookies: v.as, origin: 'https://evil.example' });
      if (res.statusCode !== 403) failures.push(`${r.key}: ${res.statusCode} ${res.body.slice(0, 120)}`);
      if (v.readBack) {
        try {
          expect(await v.readBack()).toEqual(before);
        } catch {
          failures.push(`${r.key}: changed by a cross-site call`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('the owner (or, for open routes, anyone) is served', async () => {
    const failures: string[] = [];
    for (const r of routes) {
      const v = await r.fixture!.valid(world);
      const res = await send(r, v, v.as ? { bearer: v.as } : { signedOut: true });
      if (res.statusCode !== v.status) failures.push(`${r.key}: ${res.statusCode} (expected ${v.status}) ${res.body.slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
