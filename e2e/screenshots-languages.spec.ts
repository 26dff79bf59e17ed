import { expect, test } from './fixtures';
import { FROM_SITE, waitReady } from './helpers';
import { lavfiClip, lookContext, LOOKS, registerChannel, shoot, uploadClip } from './screenshot-kit';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-languages.spec.ts   (writes docs/screenshots/*.png)
const VIDEOS = [
  { src: 'mandelbrot=s=640x360', title: 'رحلة داخل مجموعة ماندلبرو' },
  { src: 'smptehdbars=s=640x360', title: 'カラーバーの見方' },
  { src: 'gradients=s=640x360:c0=0xff7e5f:c1=0xfeb47b:speed=0.02', title: 'Sunset gradients to relax to' },
];

test('screenshots of the home, player and upload pages in Arabic and Japanese, light and dark, desktop and phone', async ({ browser, playwright }) => {
  test.setTimeout(300_000);
  const baseURL = test.info().project.use.baseURL!;
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
  await registerChannel(api, 'استوديو البكسل', { prefix: 'lang', avatarColor: '0x0d9488' });
  const ids: string[] = [];
  for (const [i, v] of VIDEOS.entries()) {
    ids.push(await uploadClip(api, { title: v.title, description: `${v.title}.`, ...lavfiClip('language-shots', `v${i}`, v.src) }));
  }
  for (const id of ids) await waitReady(api, id);
  for (const id of ids) await api.patch(`/api/v1/videos/increment-views/${id}`);
  const state = await api.storageState();
  const me = (await (await api.get('/api/v1/users/user/current')).json()).data.username as string;

  for (const language of ['ar', 'ja'] as const) {
    for (const look of LOOKS) {
      const context = await lookContext(browser, baseURL, look, { locale: language, storageState: state });
      const page = await context.newPage();
      const tag = `${language}-${look.name}`;
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expect(page.getByTestId('video-card').first()).toBeVisible();
      await shoot(page, `language-home-${tag}`);

      await page.goto(`/video/${ids[0]}`);
      await expect(page.getByTestId('video-title')).toHaveText(VIDEOS[0]!.title);
      await page.locator('.rh-player').hover();
      await shoot(page, `language-player-${tag}`);

      await page.goto(`/${me}/add-video`);
      await expect(page.locator('input[type=file]').first()).toBeAttached();
      await shoot(page, `language-upload-${tag}`, { blur: true });
      await context.close();
    }
  }
});
