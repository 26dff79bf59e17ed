import { linkToken, type MailServer, startMailServer } from '../server/test/support/mail-server';
import { expect, test } from './fixtures';
import { LOOKS, lookContext, registerChannel, shoot } from './screenshot-kit';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-mail.spec.ts   (writes docs/screenshots/*.png)
// Against the server that sends mail (playwright.config.ts), to the SMTP server this file runs: an
// address not yet confirmed, its banner and the Email address section, a change waiting for its link,
// and the page the link opens.
let mail: MailServer;
test.beforeAll(async () => {
  mail = await startMailServer(Number(process.env.E2E_MAIL_SMTP_PORT));
});
test.afterAll(async () => {
  await mail?.close();
});

test('screenshots of the address checks, light and dark, desktop and phone', async ({ browser, playwright }) => {
  test.setTimeout(240_000);
  const baseURL = test.info().project.use.baseURL!;
  for (const look of LOOKS) {
    // A fresh account each time: its address is not confirmed yet.
    const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
    const owner = await registerChannel(api, 'Ada Lovelace', { prefix: 'mail', avatarColor: '0x0ea5e9' });
    await mail.next(owner.email, 'Confirm your email address', 30_000);
    const context = await lookContext(browser, baseURL, look, { storageState: await api.storageState() });
    const page = await context.newPage();

    await page.goto('/');
    const banner = page.getByRole('status').filter({ hasText: 'Confirm your email address' });
    await expect(banner).toBeVisible();
    await shoot(page, `verify-banner-${look.name}`, { blur: true });
    await banner.getByRole('button', { name: 'Resend' }).click();
    await expect(banner).toContainText('A new link is on its way.');
    await mail.next(owner.email, 'Confirm your email address', 30_000);
    await shoot(page, `verify-banner-sent-${look.name}`, { blur: true });

    await page.goto(`/${owner.username}/devices`);
    const section = page.getByRole('region', { name: 'Email address' });
    await expect(section).toContainText('Not confirmed');
    await shoot(page, `email-section-${look.name}`, { blur: true });
    const moved = `ada-${owner.email}`;
    await section.getByLabel('New email address').fill(moved);
    await section.getByRole('button', { name: 'Change address' }).click();
    await expect(section.getByText(`We sent a link to ${moved}; your address changes when you follow it.`)).toBeVisible();
    await shoot(page, `email-section-pending-${look.name}`, { blur: true });

    const { url } = linkToken(await mail.next(moved, 'Confirm your email address', 30_000), '/verify-email');
    await page.goto(url.pathname + url.search);
    await expect(page.getByText(`Your email address ${moved} is confirmed.`)).toBeVisible();
    await shoot(page, `verify-email-${look.name}`, { blur: true });

    await page.goto(`/${owner.username}/devices`);
    await expect(section.getByTestId('account-email')).toHaveText(moved);
    await expect(section).toContainText('Confirmed');
    await shoot(page, `email-section-confirmed-${look.name}`, { blur: true });
    await context.close();
    await api.dispose();
  }
});
