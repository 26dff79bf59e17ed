import { expect, test } from './fixtures';
import { newUser } from './helpers';
import { shoot } from './screenshot-kit';

// Run with: SCREENSHOTS=1 npx playwright test --project=live e2e/screenshots-lives-publish.spec.ts
// (writes docs/screenshots/live-publish-*.png). The fake camera stands in for a real one.
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  },
});

test('screenshots of publishing a live from the browser, light and dark', async ({ browser, playwright, baseURL }) => {
  test.setTimeout(120_000);
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL! } });
  const owner = { ...newUser('studio'), fullName: 'Studio Sam' };
  expect(
    (
      await api.post('/api/v1/users/register', {
        multipart: { username: owner.username, email: owner.email, password: owner.password, fullName: owner.fullName },
      })
    ).ok(),
  ).toBe(true);
  expect((await api.post('/api/v1/users/login', { data: { email: owner.email, password: owner.password } })).ok()).toBe(true);
  const state = await api.storageState();

  for (const scheme of ['light', 'dark'] as const) {
    const created = await api.post('/api/v1/live', { data: { title: 'Morning coffee, live', description: 'From the kitchen' } });
    const id = ((await created.json()) as { data: { video: { _id: string } } }).data.video._id;
    const context = await browser.newContext({
      baseURL,
      colorScheme: scheme,
      viewport: { width: 1280, height: 800 },
      deviceScaleFactor: 1,
      storageState: state,
    });
    const page = await context.newPage();
    await page.goto(`/${owner.username}/studio/publish/${id}`);
    await expect(page.getByRole('button', { name: 'Start publishing' })).toBeVisible();
    await shoot(page, `live-publish-ready-desktop-${scheme}`);
    await page.getByRole('button', { name: 'Start publishing' }).click();
    await expect(page.getByTestId('publish-status')).toHaveText('Live', { timeout: 15_000 });
    await expect(page.getByTestId('publish-elapsed')).toHaveText('0:03', { timeout: 10_000 });
    await shoot(page, `live-publish-live-desktop-${scheme}`);
    await page.getByRole('button', { name: 'Stop publishing' }).click();
    expect((await api.post(`/api/v1/live/${id}/end`)).ok()).toBe(true);
    await context.close();
  }
  await api.dispose();
});
