import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { FROM_SITE, waitReady } from './helpers';
import { lavfiClip, registerChannel, shoot, uploadClip } from './screenshot-kit';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-social.spec.ts   (writes docs/screenshots/*.png)
const VIDEOS = [
  { src: 'mandelbrot=s=640x360', title: 'Zooming into the Mandelbrot set', channel: 0 },
  { src: 'smptehdbars=s=640x360', title: 'Colour bars, explained', channel: 1 },
  { src: 'life=s=640x360:mold=10:r=30:ratio=0.1:death_color=#101030:life_color=#40e0d0', title: "Conway's Game of Life, live", channel: 0 },
  { src: 'gradients=s=640x360:c0=0xff7e5f:c1=0xfeb47b:speed=0.02', title: 'Sunset gradients to relax to', channel: 1 },
];

function media(i: number) {
  return lavfiClip('social-shots', `v${i}`, VIDEOS[i]!.src);
}

const register = (request: APIRequestContext, fullName: string, color: string) => registerChannel(request, fullName, { prefix: 'soc', avatarColor: color });

test('screenshots of the Subscriptions tab, the notifications list and a video page with replies, light and dark', async ({ browser, playwright }) => {
  test.setTimeout(180_000);
  const baseURL = test.info().project.use.baseURL!;
  const api = () => playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
  const [studioApi, labApi, viewerApi] = await Promise.all([api(), api(), api()]);
  const channels = [await register(studioApi, 'Pixel Studio', '0xe11d48'), await register(labApi, 'Signal Lab', '0x4f46e5')];
  await register(viewerApi, 'Ada Viewer', '0x059669');
  for (const c of channels) expect((await viewerApi.post(`/api/v1/subscriptions/channel/${c._id}`)).ok()).toBe(true);

  const ids: string[] = [];
  for (const [i, v] of VIDEOS.entries()) {
    const description = `${v.title}. Made with ffmpeg's lavfi sources for the screenshots.`;
    ids.push(await uploadClip(v.channel === 0 ? studioApi : labApi, { title: v.title, description, ...media(i) }));
  }
  for (const [i, id] of ids.entries()) await waitReady(VIDEOS[i]!.channel === 0 ? studioApi : labApi, id);

  // A conversation under the studio's first video: the viewer asks, the studio answers, pins and hearts.
  const videoId = ids[0]!;
  const post = async (ctx: APIRequestContext, content: string, parentId?: string) =>
    (await (await ctx.post(`/api/v1/comments/${videoId}`, { data: { content, ...(parentId ? { parentId } : {}) } })).json()).data._id as string;
  const question = await post(viewerApi, 'How long did this take to render? The colours near the edge are wonderful.');
  await post(labApi, 'Mandelbrot never gets old.');
  await post(studioApi, 'About four minutes on a laptop: ffmpeg computes every frame.', question);
  await post(viewerApi, 'Four minutes! I expected hours.', question);
  await studioApi.patch(`/api/v1/comments/${question}/pin`);
  await studioApi.patch(`/api/v1/comments/${question}/heart`);
  const state = await viewerApi.storageState();

  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({
      baseURL,
      colorScheme: scheme,
      viewport: { width: 1280, height: 800 },
      deviceScaleFactor: 1,
      storageState: state,
    });
    const page = await context.newPage();
    const tag = `desktop-${scheme}`;

    await page.goto('/?tab=subscriptions');
    await expect(page.getByTestId('video-card')).toHaveCount(VIDEOS.length);
    await expect(page.getByTestId('followed-channels').getByRole('link')).toHaveCount(2);
    await shoot(page, `home-subscriptions-${tag}`);

    await page.getByTestId('notification-bell').click();
    await expect(page.getByRole('region', { name: 'Notifications' }).getByTestId('notification')).toHaveCount(VIDEOS.length + 1);
    await shoot(page, `notifications-${tag}`);
    await page.keyboard.press('Escape');

    await page.goto(`/video/${videoId}`);
    const pinned = page.getByTestId('comment').filter({ hasText: 'How long did this take' });
    await pinned.getByRole('button', { name: 'Show 2 replies' }).click();
    await expect(pinned.getByTestId('reply')).toHaveCount(2);
    await page.getByRole('heading', { name: /Comments?$/ }).evaluate((h) => h.scrollIntoView({ block: 'start' }));
    await page.evaluate(() => window.scrollBy(0, -72));
    await shoot(page, `video-replies-${tag}`);
    await context.close();
  }
});
