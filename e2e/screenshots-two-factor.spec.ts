import { Secret, TOTP } from 'otpauth';
import { expect, test } from './fixtures';
import { FROM_SITE } from './helpers';
import { LOOKS, lookContext, registerChannel, shoot } from './screenshot-kit';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-two-factor.spec.ts   (writes docs/screenshots/*.png)
const codeFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();

test('screenshots of two-factor sign-in, light and dark, desktop and phone', async ({ browser, playwright }) => {
  test.setTimeout(240_000);
  const baseURL = test.info().project.use.baseURL!;
  for (const look of LOOKS) {
    // A fresh account each time: turning two-factor sign-in on changes it.
    const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
    const owner = await registerChannel(api, 'Ada Lovelace', { prefix: 'tfa', avatarColor: '0x0ea5e9' });
    const context = await lookContext(browser, baseURL, look, { storageState: await api.storageState() });
    const page = await context.newPage();
    await page.goto(`/${owner.username}/devices`);
    const section = page.getByRole('region', { name: 'Two-factor authentication' });
    await expect(section.getByRole('button', { name: 'Set up two-factor authentication' })).toBeVisible();
    await shoot(page, `two-factor-off-${look.name}`, { blur: true, at: section });
    await section.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const secret = (await section.getByTestId('two-factor-secret').textContent())!.trim();
    await shoot(page, `two-factor-setup-${look.name}`, { blur: true, at: section });
    await section.getByLabel('Code from the app').fill(codeFor(secret));
    await section.getByRole('button', { name: 'Turn on' }).click();
    await expect(section.getByTestId('recovery-code')).toHaveCount(10);
    await shoot(page, `two-factor-codes-${look.name}`, { blur: true, at: section });
    const firstCode = (await section.getByTestId('recovery-code').first().textContent())!.trim();
    await section.getByRole('button', { name: 'I have saved them' }).click();

    // New recovery codes, proved with the password and a recovery code (the app's code of now is spent).
    await section.getByRole('button', { name: 'New recovery codes' }).click();
    const dialog = page.getByRole('dialog', { name: 'New recovery codes' });
    await dialog.getByLabel('Password').fill(owner.password);
    await dialog.getByLabel('Code from the app, or a recovery code').fill(firstCode);
    await shoot(page, `two-factor-new-codes-${look.name}`);
    await dialog.getByRole('button', { name: 'Make new codes' }).click();
    await expect(dialog.getByTestId('recovery-code')).toHaveCount(10);
    await shoot(page, `two-factor-new-codes-shown-${look.name}`);
    await context.close();

    const signedOut = await lookContext(browser, baseURL, look);
    const login = await signedOut.newPage();
    await login.goto('/login');
    await login.getByLabel('Email').fill(owner.email);
    await login.getByLabel('Password').fill(owner.password);
    await login.getByRole('button', { name: 'Login' }).click();
    await expect(login.getByLabel('Authentication code')).toBeVisible();
    await shoot(login, `two-factor-signin-${look.name}`);
    await signedOut.close();
    await api.dispose();
  }
});
