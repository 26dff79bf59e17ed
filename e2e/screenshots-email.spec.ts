import { expect, test } from './fixtures';
import { LOOKS, lookContext, shoot } from './screenshot-kit';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-email.spec.ts   (writes docs/screenshots/*.png)
// The screenshot server sends no mail, so the log-in page shows who to ask instead of the link; the
// forgot and reset pages are shown as a person who followed a link sees them.
test('screenshots of the log-in help, the forgot-password and reset-password pages, light and dark, desktop and phone', async ({ browser }) => {
  test.setTimeout(120_000);
  const baseURL = test.info().project.use.baseURL!;
  for (const look of LOOKS) {
    const context = await lookContext(browser, baseURL, look);
    const page = await context.newPage();
    await page.goto('/login');
    await expect(page.getByText("Forgot your password? Ask the site's admin.")).toBeVisible();
    await shoot(page, `login-no-mail-${look.name}`, { blur: true });
    await page.goto('/forgot-password');
    await expect(page.getByRole('button', { name: 'Send the link' })).toBeVisible();
    await shoot(page, `forgot-password-${look.name}`, { blur: true });
    await page.goto('/reset-password?token=screenshot-token');
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('New password again').fill('different');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await shoot(page, `reset-password-${look.name}`, { blur: true });
    await context.close();
  }
});
