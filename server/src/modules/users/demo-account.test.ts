import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';

/**
 * The demo account is made sure of at every start and whenever an admin turns it on, possibly by
 * several processes at once: however many run together, there is one account, and the configured
 * password is the one that signs in. On PostgreSQL (TEST_DB=postgres) the calls overlap in separate
 * connections.
 */
const AT_ONCE = 6;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const accounts = (email: string) => t.ctx.db.selectFrom('users').select(['username', 'is_demo']).where('email', '=', email).execute();
const ensureAtOnce = (email: string, password: string) =>
  Promise.all(Array.from({ length: AT_ONCE }, () => t.services.startUpAccounts.ensureDemoAccount({ email, password })));
const passwordHash = async (email: string) =>
  (await t.ctx.db.selectFrom('users').select('password_hash').where('email', '=', email).executeTakeFirstOrThrow()).password_hash;
const signsInWith = async (email: string, password: string) => argon2.verify(await passwordHash(email), password);

describe('making sure of the demo account', () => {
  it(`${AT_ONCE} at once on a site without one make one account`, async () => {
    await ensureAtOnce('first-demo@example.com', 'first-demo-password');
    expect(await accounts('first-demo@example.com')).toEqual([{ username: 'demo', is_demo: 1 }]);
  });

  it('takes the next free name when someone else is called demo, also when several run at once', async () => {
    // The first test's account holds `demo`; a person holds `demo1`.
    await t.signUp({ username: 'demo1' });
    await ensureAtOnce('second-demo@example.com', 'second-demo-password');
    expect(await accounts('second-demo@example.com')).toEqual([{ username: 'demo2', is_demo: 1 }]);
    expect(await signsInWith('second-demo@example.com', 'second-demo-password')).toBe(true);
  });

  it('sets a changed password, and leaves an unchanged one be', async () => {
    const email = 'first-demo@example.com';
    const before = await passwordHash(email);
    await t.services.startUpAccounts.ensureDemoAccount({ email, password: 'first-demo-password' });
    expect(await passwordHash(email)).toBe(before);

    await ensureAtOnce(email, 'new-demo-password');
    expect(await accounts(email)).toEqual([{ username: 'demo', is_demo: 1 }]);
    expect(await signsInWith(email, 'new-demo-password')).toBe(true);
    expect(await signsInWith(email, 'first-demo-password')).toBe(false);
  });
});
