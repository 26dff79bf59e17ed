import { expect, test, watchForCspViolations } from './fixtures';
import { loginViaUi, newUser, signUpViaApi, toast } from './helpers';

const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

test.describe('your devices', () => {
  test('a device signed out from another is signed out on its next request', async ({ browser, request }) => {
    const user = newUser('devices');
    await signUpViaApi(request, user);
    const desktop = await browser.newContext();
    const phone = await browser.newContext({ userAgent: IPHONE_SAFARI, viewport: { width: 390, height: 844 }, isMobile: true });
    const violations = [...watchForCspViolations(desktop), ...watchForCspViolations(phone)];
    try {
      const phonePage = await phone.newPage();
      await loginViaUi(phonePage, user);
      const page = await desktop.newPage();
      await loginViaUi(page, user);

      // Reached the way a person would: profile, Edit Profile, Sign-in and security.
      await page.goto(`/${user.username}/edit-profile`);
      await page.getByRole('link', { name: 'Sign-in and security' }).click();
      await expect(page).toHaveURL(new RegExp(`/${user.username}/devices$`));
      await expect(page.getByRole('heading', { name: 'Your devices' })).toBeVisible();
      // The sign-up's own session (the API request context) is a third device: sign it out for a clear list.
      await expect(page.getByTestId('device')).toHaveCount(3);
      const here = page.getByTestId('device').filter({ hasText: 'This device' });
      await expect(here).toHaveCount(1);
      await expect(here).toContainText('Chrome');
      await expect(here).toContainText('127.0.0.1');
      const phoneRow = page.getByTestId('device').filter({ hasText: 'Safari 18 on iOS 18' });
      await expect(phoneRow).toHaveCount(1);

      await phoneRow.getByRole('button', { name: 'Sign out Safari 18 on iOS 18' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign out device' });
      await expect(dialog).toContainText('Safari 18 on iOS 18');
      await dialog.getByRole('button', { name: 'Sign out' }).click();
      await expect(toast(page, 'Signed out Safari 18 on iOS 18')).toBeVisible();
      await expect(page.getByTestId('device')).toHaveCount(2);
      await expect(phoneRow).toHaveCount(0);

      // The phone's next navigation finds itself signed out and is sent to sign in.
      await phonePage.goto(`/${user.username}/watch-history`);
      await expect(phonePage).toHaveURL(/\/login/);
      await expect(phonePage.getByRole('button', { name: 'Login' })).toBeVisible();
      expect((await phonePage.request.get('/api/v1/users/user/current')).status()).toBe(401);

      // Every other device at once: only this one stays.
      await page.getByRole('button', { name: 'Sign out of all other devices' }).click();
      await page.getByRole('dialog', { name: 'Sign out other devices' }).getByRole('button', { name: 'Sign out' }).click();
      await expect(toast(page, 'Signed out of 1 other device')).toBeVisible();
      await expect(page.getByTestId('device')).toHaveCount(1);
      await expect(page.getByRole('button', { name: 'Sign out of all other devices' })).toHaveCount(0);
      expect((await request.get('/api/v1/users/user/current')).status()).toBe(401);
      await page.reload();
      await expect(page.getByTestId('device')).toHaveCount(1);
      expect(violations).toEqual([]);
    } finally {
      await desktop.close();
      await phone.close();
    }
  });
});
