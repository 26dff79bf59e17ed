import { expect, test } from './fixtures';
import { FROM_SITE, newUser, signUpViaApi, uploadViaApi, waitReady } from './helpers';
import { shoot } from './screenshot-kit';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-admin.spec.ts   (writes docs/screenshots/admin-*.png)
test('screenshots of every admin screen, light and dark', async ({ browser, playwright }) => {
  test.setTimeout(180_000);
  const baseURL = test.info().project.use.baseURL!;
  const ctx = () => playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
  const [adminApi, ownerApi, reporterApi] = await Promise.all([ctx(), ctx(), ctx()]);
  await signUpViaApi(adminApi, { ...newUser('adm'), email: 'e2e-admin@example.com', fullName: 'Site Admin' });
  const owner = await signUpViaApi(ownerApi, { ...newUser('maker'), fullName: 'Maya Maker' });
  await signUpViaApi(reporterApi, { ...newUser('viewer'), fullName: 'Victor Viewer' });
  const video = await uploadViaApi(ownerApi, { title: 'Street food tour, part one', description: 'Night market' });
  await waitReady(ownerApi, video._id);
  await uploadViaApi(ownerApi, { title: 'Street food tour, part two' });
  expect(
    (
      await reporterApi.post('/api/v1/reports', { data: { targetType: 'video', targetId: video._id, reason: 'spam', note: 'Links to a shop in every frame' } })
    ).ok(),
  ).toBe(true);
  // One backup taken, so that the Backups screen has one to show.
  expect((await adminApi.post('/api/v1/admin/backups')).status()).toBe(202);
  expect((await adminApi.patch(`/api/v1/admin/users/${owner._id}`, { data: { quotaBytes: 2_000_000_000, dailyQuotaBytes: 500_000_000 } })).ok()).toBe(true);
  // Two remote servers blocked, for the Federation screen.
  for (const domain of ['spam.example.net', 'tube.noisy.example']) {
    expect((await adminApi.post('/api/v1/admin/federation/blocks', { data: { domain } })).status()).toBe(201);
  }
  const state = await adminApi.storageState();

  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({
      baseURL,
      colorScheme: scheme,
      viewport: { width: 1280, height: 800 },
      deviceScaleFactor: 1,
      storageState: state,
    });
    const page = await context.newPage();
    const screens: [string, string, () => Promise<void>][] = [
      ['overview', 'Overview', () => expect(page.getByText('Storage used')).toBeVisible()],
      ['reports', 'Reports', () => expect(page.getByText('Links to a shop in every frame')).toBeVisible()],
      ['users', 'Users', () => expect(page.getByRole('table', { name: 'Users' })).toContainText('Maya Maker')],
      ['videos', 'Videos', () => expect(page.getByRole('table', { name: 'Videos' })).toContainText('Street food tour')],
      ['jobs', 'Jobs', () => expect(page.getByRole('region', { name: 'Lanes' })).toContainText('background')],
      ['backups', 'Backups', () => expect(page.getByRole('table', { name: 'Recent backups' })).toContainText('Good')],
      ['federation', 'Federation', () => expect(page.getByRole('table', { name: 'Blocked servers' })).toContainText('tube.noisy.example')],
      ['settings', 'Settings', () => expect(page.getByLabel('Site name')).toBeVisible()],
      ['audit-log', 'Audit log', () => expect(page.getByRole('table', { name: 'Audit log' })).toContainText('user.quota')],
    ];
    for (const [slug, , ready] of screens) {
      await page.goto(`/admin/${slug}`);
      await ready();
      await shoot(page, `admin-${slug}-desktop-${scheme}`);
    }
    // The limits on lives, further down the settings.
    await page.goto('/admin/settings');
    await shoot(page, `admin-settings-lives-desktop-${scheme}`, { at: page.getByRole('heading', { name: 'Lives' }) });
    await context.close();
  }
});
