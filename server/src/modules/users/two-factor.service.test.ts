import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { SecretBox } from './totp.js';
import { TwoFactorRepository } from './two-factor.repository.js';
import { TwoFactorService, WRONG_CODES_WINDOW_MS } from './two-factor.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The service over the app's real database, on a clock the test moves. */
function serviceAt(start: number) {
  const clock = { now: start };
  const service = new TwoFactorService({
    rows: new TwoFactorRepository(t.ctx.db),
    box: new SecretBox('a signing secret for the test'),
    accounts: { getRow: (id) => t.services.users.getRow(id) },
    issuer: async () => 'Test site',
    now: () => clock.now,
  });
  return { service, clock };
}

const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });

describe('TwoFactorService', () => {
  it('lets wrong codes through again once the window has passed', async () => {
    const u = await t.signUp();
    const { service, clock } = serviceAt(1_900_000_000_000);
    const { secret } = await service.setup(u.id);
    await service.enable(u.id, codeAt(secret, clock.now));
    const wrong = String((Number(codeAt(secret, clock.now + 30_000)) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) await expect(service.signInPasses(u.id, { code: wrong })).rejects.toMatchObject({ statusCode: 401 });
    clock.now += WRONG_CODES_WINDOW_MS - 60_000;
    await expect(service.signInPasses(u.id, { code: codeAt(secret, clock.now) })).rejects.toMatchObject({ statusCode: 429 });
    clock.now += 60_000;
    expect(await service.signInPasses(u.id, { code: codeAt(secret, clock.now) })).toBe(true);
  });

  it('refuses a code of an earlier step than the last one taken, though still inside the window', async () => {
    const u = await t.signUp();
    const { service, clock } = serviceAt(1_900_000_000_000);
    const { secret } = await service.setup(u.id);
    await service.enable(u.id, codeAt(secret, clock.now));
    clock.now += 30_000;
    expect(await service.signInPasses(u.id, { code: codeAt(secret, clock.now) })).toBe(true);
    // The previous step's code is still within one step of now, but a later one was already taken.
    await expect(service.signInPasses(u.id, { code: codeAt(secret, clock.now - 30_000) })).rejects.toMatchObject({ statusCode: 401 });
  });

  it('is refused to the demo account', async () => {
    const u = await t.signUp();
    await t.ctx.db.updateTable('users').set({ is_demo: 1 }).where('id', '=', u.id).execute();
    await expect(serviceAt(Date.now()).service.setup(u.id)).rejects.toMatchObject({ statusCode: 403 });
  });

  it('gives new recovery codes only for both proofs, and only while it is on', async () => {
    const u = await t.signUp();
    const { service, clock } = serviceAt(1_900_000_000_000);
    await expect(service.newRecoveryCodes(u.id, u.password, '123456')).rejects.toMatchObject({ statusCode: 400 });
    const { secret } = await service.setup(u.id);
    const { recoveryCodes: first } = await service.enable(u.id, codeAt(secret, clock.now));
    clock.now += 30_000;
    await expect(service.newRecoveryCodes(u.id, 'wrong-password-1', codeAt(secret, clock.now))).rejects.toMatchObject({ statusCode: 400 });
    const { recoveryCodes: second } = await service.newRecoveryCodes(u.id, u.password, codeAt(secret, clock.now));
    expect(second).toHaveLength(10);
    expect(second.some((c) => first.includes(c))).toBe(false);
    // The step just used cannot be used again, and the old codes are gone.
    await expect(service.newRecoveryCodes(u.id, u.password, codeAt(secret, clock.now))).rejects.toMatchObject({ statusCode: 400 });
    await expect(service.signInPasses(u.id, { recoveryCode: first[0]! })).rejects.toMatchObject({ statusCode: 401 });
    expect(await service.signInPasses(u.id, { recoveryCode: second[0]! })).toBe(true);
  });
});
