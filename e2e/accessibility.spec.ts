import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signUpViaApi, uploadViaApi, waitReady } from './helpers';

/** What axe finds serious or critical on the page as it stands, one line per rule and element. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`));
}

test('axe finds no serious or critical violation on the main pages, light and dark', async ({ page }) => {
  test.setTimeout(180_000);
  const owner = await signUpViaApi(page.request);
  const { _id } = await uploadViaApi(page.request, { title: 'An accessible reel' });
  await waitReady(page.request, _id);
  const found: string[] = [];
  const u = `/${owner.username}`;
  const routes = [
    '/',
    `/video/${_id}`,
    `/channel/${owner.username}`,
    u,
    `${u}/add-video`,
    `${u}/studio`,
    `${u}/watch-history`,
    `${u}/playlists`,
    `${u}/edit-profile`,
    '/login',
    '/signup',
  ];
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const route of routes) {
      await page.goto(route);
      await page.waitForLoadState('networkidle');
      for (const v of await seriousViolations(page)) found.push(`${theme} ${route}: ${v}`);
    }
  }
  console.log(found.join('\n'));
  expect(found).toEqual([]);
});
