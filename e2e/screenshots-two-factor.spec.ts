import { Secret, TOTP } from 'otpauth';
import { expect, test } from './fixtures';
import { FROM_SITE } from './helpers';
import { registerChannel, shoot } from './screenshot-kit';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-two-factor.spec.ts   (writes docs/screenshots/*.png)
const codeFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();

test('screenshots of two-factor sign-in, light and dark, desktop and phone', async ({ browser, playwright }) => {
  test.setTimeout(180_000);
  const baseURL = test.info().project.use.baseURL!;
  for (const scheme of ['light', 'dark'] as const) {
    for (const form of [
      { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false },
      { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
    ]) {
      // A fresh account each time: turning two-factor sign-in on changes it.
      const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
      const owner = await registerChannel(api, 'Ada Lovelace', { prefix: 'tfa', avatarColor: '0x0ea5e9' });
      const options = { baseURL, colorScheme: scheme, viewport: form.viewport, deviceScaleFactor: 1, isMobile: form.isMobile, hasTouch: form.isMobile };
      const context = await browser.newContext({ ...options, storageState: await api.storageState() });
      const page = await context.newPage();
      await page.goto(`/${owner.username}/devices`);
      const section = page.getByRole('region', { name: 'Two-factor authentication' });
      await expect(section.getByRole('button', { name: 'Set up two-factor authentication' })).toBeVisible();
      await shoot(page, `two-factor-off-${form.name}-${scheme}`, { blur: true });
      await section.getByRole('button', { name: 'Set up two-factor authentication' }).click();
      const secret = (await section.getByTestId('two-factor-secret').textContent())!.trim();
      await shoot(page, `two-factor-setup-${form.name}-${scheme}`, { blur: true });
      await section.getByLabel('Code from the app').fill(codeFor(secret));
      await section.getByRole('button', { name: 'Turn on' }).click();
      await expect(section.getByTestId('recovery-code')).toHaveCount(10);
      await shoot(page, `two-factor-codes-${form.name}-${scheme}`, { blur: true });
      await context.close();

      const signedOut = await browser.newContext(options);
      const login = await signedOut.newPage();
      await login.goto('/login');
      await login.getByLabel('Email').fill(owner.email);
      await login.getByLabel('Password').fill(owner.password);
      await login.getByRole('button', { name: 'Login' }).click();
      await expect(login.getByLabel('Authentication code')).toBeVisible();
      await shoot(login, `two-factor-signin-${form.name}-${scheme}`);
      await signedOut.close();
      await api.dispose();
    }
  }
});
