import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { FROM_SITE, waitReady } from './helpers';
import { lavfiClip, registerChannel, shoot, uploadClip } from './screenshot-kit';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-discovery.spec.ts   (writes docs/screenshots/*.png)
const VIDEOS = [
  { src: 'mandelbrot=s=480x270', title: 'A slow dive into the Mandelbrot set', channel: 0, views: 40, position: null },
  { src: 'smptehdbars=s=480x270', title: 'Colour bars and what each one is for', channel: 1, views: 32, position: 5 },
  {
    src: 'life=s=480x270:mold=10:r=25:ratio=0.1:death_color=#101030:life_color=#40e0d0',
    title: 'Game of Life: gliders everywhere',
    channel: 0,
    views: 25,
    position: 8,
  },
  { src: 'gradients=s=480x270:c0=0xff7e5f:c1=0xfeb47b:speed=0.02', title: 'Warm gradients for a quiet evening', channel: 1, views: 18, position: null },
  { src: 'testsrc2=s=480x270', title: 'Test card with a moving ball', channel: 0, views: 9, position: 3 },
  { src: 'cellauto=s=480x270:rule=110', title: 'Rule 110, one line at a time', channel: 1, views: 4, position: null },
];
const SECONDS = 12;

function media(i: number) {
  return lavfiClip('discovery-shots', `v${i}`, VIDEOS[i]!.src, { seconds: SECONDS, fast: true });
}

const register = (request: APIRequestContext, fullName: string, color: string) => registerChannel(request, fullName, { prefix: 'dis', avatarColor: color });

test('screenshots of the Trending tab and a video page with its Up next column, light and dark', async ({ browser, playwright }) => {
  test.setTimeout(300_000);
  const baseURL = test.info().project.use.baseURL!;
  const api = (headers: Record<string, string> = {}) => playwright.request.newContext({ baseURL, extraHTTPHeaders: { ...FROM_SITE, ...headers } });
  const [studioApi, labApi, viewerApi] = await Promise.all([api(), api(), api()]);
  await register(studioApi, 'Pixel Studio', '0xe11d48');
  await register(labApi, 'Signal Lab', '0x4f46e5');
  await register(viewerApi, 'Ada Viewer', '0x059669');

  const ids: string[] = [];
  for (const [i, v] of VIDEOS.entries()) {
    const description = `${v.title}. Made with ffmpeg's lavfi sources for the screenshots.`;
    ids.push(await uploadClip(v.channel === 0 ? studioApi : labApi, { title: v.title, description, ...media(i) }));
  }
  for (const [i, id] of ids.entries()) await waitReady(VIDEOS[i]!.channel === 0 ? studioApi : labApi, id);

  // Views from distinct signed-out viewers (one counts per viewer and hour) give trending its order.
  const visitor = await api();
  for (const [i, v] of VIDEOS.entries()) {
    for (let n = 0; n < v.views; n++) {
      await visitor.patch(`/api/v1/videos/increment-views/${ids[i]}`, { headers: { 'user-agent': `screenshot-viewer-${n}` } });
    }
  }
  // The viewer has stopped part-way through some videos: their cards carry a progress bar.
  for (const [i, v] of VIDEOS.entries()) {
    if (v.position !== null) expect((await viewerApi.patch(`/api/v1/users/watch-history/${ids[i]}`, { data: { position: v.position } })).ok()).toBe(true);
  }
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

    await page.goto('/?tab=trending');
    await expect(page.getByTestId('video-card').filter({ hasText: VIDEOS[0]!.title })).toBeVisible();
    await expect(page.getByTestId('watch-progress').first()).toBeVisible();
    await shoot(page, `home-trending-${tag}`);

    await page.goto(`/video/${ids[1]}`);
    const column = page.getByRole('complementary', { name: 'Up next' });
    await expect(column.getByTestId('compact-video-card').first()).toBeVisible();
    await expect(column.getByTestId('watch-progress').first()).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Resumed from' })).toBeVisible();
    await shoot(page, `video-upnext-${tag}`);
    await context.close();
  }
});
