import type { Browser, BrowserContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { registerChannel, shoot } from './screenshot-kit';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-passkeys.spec.ts   (writes docs/screenshots/*.png)
// It runs on the passkey journeys' own server (reached as localhost: passkeys need a host name).
const AGENTS = {
  linuxChrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  macChrome: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
};

/** A context with a device authenticator of its own (Chromium's virtual one, which verifies the user at once). */
async function withAuthenticator(context: BrowserContext) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return page;
}

async function addPasskeyFrom(
  browser: Browser,
  baseURL: string,
  userAgent: string,
  storageState: Awaited<ReturnType<BrowserContext['storageState']>>,
  username: string,
) {
  const context = await browser.newContext({ baseURL, userAgent, storageState });
  const page = await withAuthenticator(context);
  await page.goto(`/${username}/devices`);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Passkey added' })).toBeVisible();
  return { context, page };
}

test('screenshots of passkeys, light and dark, desktop and phone', async ({ browser, playwright }) => {
  test.setTimeout(180_000);
  const baseURL = test.info().project.use.baseURL!;
  const api = await playwright.request.newContext({ baseURL, userAgent: AGENTS.linuxChrome, extraHTTPHeaders: { origin: baseURL } });
  const owner = await registerChannel(api, 'Ada Lovelace', { prefix: 'pk', avatarColor: '0x0ea5e9' });
  const state = await api.storageState();
  // Two passkeys, from a Linux and a Mac laptop; the Linux one has signed in with it since.
  const mac = await addPasskeyFrom(browser, baseURL, AGENTS.macChrome, state, owner.username);
  await mac.context.close();
  const linux = await addPasskeyFrom(browser, baseURL, AGENTS.linuxChrome, state, owner.username);
  await linux.page.getByRole('button', { name: 'Logout' }).click();
  // The sign-in page offers the passkey at once (autofill), and the virtual authenticator takes it.
  await linux.page.goto('/login');
  await expect(linux.page.getByRole('button', { name: 'Logout' })).toBeVisible();
  const signedIn = await linux.context.storageState();
  await linux.context.close();

  for (const scheme of ['light', 'dark'] as const) {
    for (const form of [
      { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false },
      { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
    ]) {
      const options = { baseURL, colorScheme: scheme, viewport: form.viewport, deviceScaleFactor: 1, isMobile: form.isMobile, hasTouch: form.isMobile };
      const context = await browser.newContext({ ...options, storageState: signedIn });
      const page = await context.newPage();
      await page.goto(`/${owner.username}/devices`);
      await expect(page.getByTestId('passkey')).toHaveCount(2);
      await shoot(page, `passkeys-${form.name}-${scheme}`, { blur: true, at: page.getByRole('region', { name: 'Passkeys' }) });
      if (form.name === 'desktop') {
        await page.getByRole('button', { name: 'Remove Chrome on macOS' }).click();
        await expect(page.getByRole('dialog', { name: 'Remove passkey' })).toBeVisible();
        await shoot(page, `passkeys-confirm-${form.name}-${scheme}`);
      }
      await context.close();

      const signedOut = await browser.newContext(options);
      const login = await signedOut.newPage();
      await login.goto('/login');
      await expect(login.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
      await shoot(login, `login-passkey-${form.name}-${scheme}`, { blur: true });
      await signedOut.close();
    }
  }
  await api.dispose();
});
