import path from 'node:path';
import { expect, test } from './fixtures';
import { FIXTURES, SITE_ORIGIN, signUpViaApi, uploadViaApi, waitReady } from './helpers';
import { outsideSite } from './outside-site';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-embed.spec.ts   (writes docs/screenshots/*.png)
const OUT = path.resolve(import.meta.dirname, '../docs/screenshots');

test('embed page framed by another site (desktop, light)', async ({ page }) => {
  test.setTimeout(120_000);
  await page.emulateMedia({ colorScheme: 'light' });
  await signUpViaApi(page.request);
  const { _id: id } = await uploadViaApi(page.request, { title: 'Test pattern with a tone', file: FIXTURES.video });
  await waitReady(page.request, id);
  const outside = await outsideSite(`<!doctype html><html><body style="margin:0;padding:32px 48px;font:16px/1.5 Georgia,serif;background:#faf7f2;color:#222">
        <h1 style="font-size:28px;margin:0 0 8px">A week of test patterns</h1>
        <p style="max-width:640px;color:#555">Someone else's blog post, on a site of its own, with the video pasted from its Embed button:</p>
        <iframe src="${SITE_ORIGIN}/embed/${id}" width="640" height="360" title="Test pattern with a tone" frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen></iframe>
        <p style="max-width:640px;color:#555">The post goes on below the player.</p></body></html>`);
  await page.goto(outside.url);
  const frame = page.frameLocator('iframe');
  await expect(frame.getByRole('link', { name: 'Test pattern with a tone' })).toBeVisible();
  await expect(frame.locator('video')).toHaveCount(1);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: path.join(OUT, 'embed-desktop-light.png') });
  await outside.close();
});
