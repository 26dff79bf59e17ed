import type { Locator } from '@playwright/test';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { FROM_SITE, signUpViaApi, uploadViaApi, waitReady } from './helpers';
import { LOOKS, lookContext } from './screenshot-kit';

// axe on what only opens on demand: the player's menus, the dialogs, the top bar's menus and the
// phone's sidebar, light and dark, on a desktop and a phone. Any serious or critical violation fails.

const VTT = 'WEBVTT\n\n00:00.000 --> 00:02.000\nHello from the test pattern\n';

for (const look of LOOKS) {
  test(`axe finds nothing serious in the player, dialogs and menus, ${look.name}`, async ({ browser, baseURL }) => {
    test.setTimeout(120_000);
    // Reduced motion: menus open without their animation, so that axe measures them at full size.
    const context = await lookContext(browser, baseURL!, look, { reducedMotion: 'reduce' });
    const page = await context.newPage();
    const found: string[] = [];
    const check = async (state: string, open?: Locator) => {
      if (open) await expect(open).toBeVisible();
      found.push(...(await seriousViolations(page, `${look.name} ${state}`)));
    };

    await signUpViaApi(page.request);
    const { _id } = await uploadViaApi(page.request, { title: 'Menus and dialogs' });
    await waitReady(page.request, _id);
    const caption = await page.request.post(`/api/v1/videos/${_id}/captions`, {
      headers: FROM_SITE,
      multipart: { language: 'en', label: 'English', file: { name: 'en.vtt', mimeType: 'text/vtt', buffer: Buffer.from(VTT) } },
    });
    expect(caption.ok()).toBe(true);
    await page.request.post('/api/v1/playlist/', { headers: FROM_SITE, data: { name: 'Later', description: '' } });

    await page.goto(`/video/${_id}`);
    await page.waitForLoadState('networkidle');
    await expect(page.getByText('Your video')).toBeVisible();
    // The clip ends within a second: without this, Up next would move on to another video.
    await page.getByRole('switch', { name: 'Autoplay' }).click();
    await expect(page.getByRole('switch', { name: 'Autoplay' })).not.toBeChecked();
    // The player's full controls show once it has played (the clip lasts a second and then ends).
    await page.locator('.rh-player video').evaluate((v: HTMLVideoElement) => (v.muted = true));
    await page.getByRole('button', { name: 'Play' }).first().click();
    const settings = page.getByRole('button', { name: 'Settings', exact: true });
    await settings.click();
    await check('player settings menu', page.getByRole('menu').first());
    for (const submenu of ['Captions', 'Accessibility', 'Speed']) {
      if (!(await page.getByRole('menu').first().isVisible())) await settings.click();
      await page.getByRole('menuitem', { name: new RegExp(`^${submenu}`) }).click();
      await check(`player ${submenu} menu`, page.getByRole('menu').last());
      await page.keyboard.press('Escape');
    }
    await expect(page.getByRole('menu')).toHaveCount(0);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await check('save to playlist dialog', page.getByRole('dialog', { name: 'Save to playlist' }));
    await page.keyboard.press('Escape');

    for (const [button, dialog] of [
      ['Edit', 'edit video'],
      ['Delete', 'delete video'],
    ] as const) {
      await page.getByRole('button', { name: button, exact: true }).click();
      await check(`${dialog} dialog`, page.getByRole('dialog'));
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }

    await page.getByRole('button', { name: 'Captions (1)', exact: true }).click();
    await check('captions panel', page.getByRole('region', { name: 'Captions', exact: true }));
    await page.getByRole('button', { name: 'Captions (1)', exact: true }).click();

    if (look.form === 'phone') {
      await page.getByRole('button', { name: 'Menu' }).click();
      await check('sidebar open', page.getByRole('navigation').first());
      await page.keyboard.press('Escape');
    }
    await page.getByTestId('language-picker').click();
    await check('language menu', page.getByRole('menu'));
    await page.keyboard.press('Escape');
    await page.getByTestId('notification-bell').click();
    await check('notifications panel', page.getByRole('region', { name: 'Notifications' }));
    await page.keyboard.press('Escape');

    await context.close();
    console.log(found.join('\n'));
    expect(found).toEqual([]);
  });
}
