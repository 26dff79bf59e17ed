import { expect, test } from './fixtures';
import { FROM_SITE } from './helpers';
import { LOOKS, lookContext, registerChannel, shoot } from './screenshot-kit';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-devices.spec.ts   (writes docs/screenshots/*.png)
const AGENTS = {
  linuxChrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
  windowsFirefox: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:135.0) Gecko/20100101 Firefox/135.0',
  macSafari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
};

test('screenshots of Your devices, light and dark, desktop and phone', async ({ browser, playwright }) => {
  test.setTimeout(120_000);
  const baseURL = test.info().project.use.baseURL!;
  const device = (userAgent: string) => playwright.request.newContext({ baseURL, userAgent, extraHTTPHeaders: FROM_SITE });
  // Signed in on four devices; the Linux one is the one looking at the page.
  const laptop = await device(AGENTS.linuxChrome);
  const owner = await registerChannel(laptop, 'Ada Lovelace', { prefix: 'dev', avatarColor: '0x0ea5e9' });
  const others = [await device(AGENTS.iphone), await device(AGENTS.windowsFirefox), await device(AGENTS.macSafari)];
  for (const other of others) {
    expect((await other.post('/api/v1/users/login', { data: { email: owner.email, password: owner.password } })).ok()).toBe(true);
  }
  const state = await laptop.storageState();

  for (const look of LOOKS) {
    const context = await lookContext(browser, baseURL, look, { storageState: state });
    const page = await context.newPage();
    await page.goto(`/${owner.username}/devices`);
    await expect(page.getByTestId('device')).toHaveCount(4);
    await shoot(page, `devices-${look.name}`, { blur: true, at: page.getByRole('region', { name: 'Your devices' }) });
    if (look.form === 'desktop') {
      await page.getByRole('button', { name: 'Sign out Safari 18 on iOS 18' }).click();
      await expect(page.getByRole('dialog', { name: 'Sign out device' })).toBeVisible();
      await shoot(page, `devices-confirm-${look.name}`);
    }
    await context.close();
  }
  for (const c of [laptop, ...others]) await c.dispose();
});
