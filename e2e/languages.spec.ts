import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { FROM_SITE, signUpViaApi, uploadViaApi, waitReady } from './helpers';

type Catalogue = Record<string, any>;

/** A shipped catalogue, so that the journeys ask for the words the translators wrote. */
function catalogue(language: string, namespace: string): Catalogue {
  return JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', 'web', 'src', 'locales', language, `${namespace}.json`), 'utf8')) as Catalogue;
}

const html = (page: Page) => page.locator('html');

/** A channel with one ready video viewed once, made from a context of its own. */
async function channelWithAVideo(browser: import('@playwright/test').Browser) {
  const context = await browser.newContext();
  const owner = await signUpViaApi(context.request);
  const { _id } = await uploadViaApi(context.request, { title: `Un film ${Date.now().toString(36)}` });
  await waitReady(context.request, _id);
  await context.request.patch(`/api/v1/videos/increment-views/${_id}`, { headers: FROM_SITE });
  await context.close();
  return { owner, videoId: _id };
}

test.describe('in French', () => {
  test.use({ locale: 'fr-FR' });

  test('a French browser gets French pages and formats; a choice of Arabic mirrors the page, stays after a reload and follows the account to another device', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const fr = { app: catalogue('fr', 'app'), common: catalogue('fr', 'common') };
    const ar = { app: catalogue('ar', 'app') };
    const { owner } = await channelWithAVideo(browser);

    await page.goto(`/channel/${owner.username}`);
    await expect(html(page)).toHaveAttribute('lang', 'fr');
    await expect(html(page)).toHaveAttribute('dir', 'ltr');
    await expect(page.getByRole('link', { name: fr.app.sidebar.home, exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: fr.app.topBar.login })).toBeVisible();
    // The card's count and age, in French: "1 vue", "il y a 5 secondes".
    const card = page.getByText(fr.common.viewCount_one.replace('{{formatted}}', '1'), { exact: false }).first();
    await expect(card).toBeVisible();
    await expect(page.getByText(/il y a \d+ (seconde|minute)s?|à l’instant/).first()).toBeVisible();
    await expect(page.getByText('Home', { exact: true })).toHaveCount(0);

    // Signed in, the visitor picks Arabic from the top bar's menu.
    const member = await signUpViaApi(page.request);
    await page.reload();
    await page.getByTestId('language-picker').click();
    await page.getByRole('menuitemradio', { name: 'العربية' }).click();
    await expect(html(page)).toHaveAttribute('lang', 'ar');
    await expect(html(page)).toHaveAttribute('dir', 'rtl');
    const home = page.getByRole('link', { name: ar.app.sidebar.home, exact: true });
    await expect(home).toBeVisible();
    // Mirrored: the sidebar is now at the right-hand edge.
    const width = page.viewportSize()!.width;
    const box = (await home.boundingBox())!;
    expect(box.x).toBeGreaterThan(width / 2);
    await expect
      .poll(async () => ((await (await page.request.get('/api/v1/users/user/current')).json()) as { data: { language: string | null } }).data.language)
      .toBe('ar');

    await page.reload();
    await expect(html(page)).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('link', { name: ar.app.sidebar.home, exact: true })).toBeVisible();

    // Another device, whose browser speaks English: signing in brings the account's Arabic.
    const other = await browser.newContext({ locale: 'en-US' });
    const elsewhere = await other.newPage();
    // Signed in, the page turns Arabic at once: its sign-out button is looked for in Arabic, not English.
    await elsewhere.goto('/login');
    await elsewhere.getByLabel('Email').fill(member.email);
    await elsewhere.getByLabel('Password').fill(member.password);
    await elsewhere.getByRole('button', { name: 'Login' }).click();
    await expect(elsewhere.getByRole('button', { name: ar.app.topBar.logout, exact: true })).toBeVisible();
    await expect(html(elsewhere)).toHaveAttribute('lang', 'ar');
    await expect(html(elsewhere)).toHaveAttribute('dir', 'rtl');
    await expect(elsewhere.getByRole('link', { name: ar.app.sidebar.home, exact: true })).toBeVisible();
    await other.close();
  });
});

test.describe('in Arabic', () => {
  test.use({ locale: 'ar-EG' });

  test('an Arabic browser gets right-to-left Arabic pages with Arabic counts and dates', async ({ page, browser }) => {
    test.setTimeout(90_000);
    const ar = { app: catalogue('ar', 'app'), common: catalogue('ar', 'common') };
    const { owner } = await channelWithAVideo(browser);
    await page.goto(`/channel/${owner.username}`);
    await expect(html(page)).toHaveAttribute('lang', 'ar');
    await expect(html(page)).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('link', { name: ar.app.sidebar.home, exact: true })).toBeVisible();
    await expect(page.getByText(ar.common.viewCount_one).first()).toBeVisible();
    // "قبل 5 ثوانٍ": the age as Intl writes it in Arabic, in the browser itself.
    const agoWord = await page.evaluate(() => new Intl.RelativeTimeFormat('ar').format(-5, 'second').split(' ')[0]!);
    await expect(page.getByText(new RegExp(`${agoWord}|${ar.common.justNow}`)).first()).toBeVisible();
    // The logo sits at the right-hand edge of the top bar.
    const logo = (await page.getByRole('link', { name: ar.app.topBar.home }).boundingBox())!;
    expect(logo.x).toBeGreaterThan(page.viewportSize()!.width / 2);
  });
});
