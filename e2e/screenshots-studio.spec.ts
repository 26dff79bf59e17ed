import { expect, test } from './fixtures';
import { FROM_SITE, waitReady } from './helpers';
import { lavfiClip, registerChannel, shoot, uploadClip } from './screenshot-kit';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-studio.spec.ts   (writes docs/screenshots/*.png)
const VIDEOS = [
  { src: 'mandelbrot=s=640x360', title: 'Zooming into the Mandelbrot set' },
  { src: 'smptehdbars=s=640x360', title: 'Colour bars, explained' },
  { src: 'gradients=s=640x360:c0=0xff7e5f:c1=0xfeb47b:speed=0.02', title: 'Sunset gradients to relax to' },
];
function media(i: number) {
  return lavfiClip('studio-shots', `v${i}`, VIDEOS[i]!.src);
}

test("screenshots of the studio list and a video's chart, light and dark", async ({ browser, playwright }) => {
  test.setTimeout(180_000);
  const baseURL = test.info().project.use.baseURL!;
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
  const user = await registerChannel(api, 'Pixel Studio', { prefix: 'studio' });
  const ids: string[] = [];
  for (const [i, v] of VIDEOS.entries()) ids.push(await uploadClip(api, { title: v.title, description: `${v.title}, made with ffmpeg.`, ...media(i) }));
  for (const id of ids) await waitReady(api, id);
  // Views from a few viewers (each counts once an hour), an unlisted and a scheduled video.
  for (let n = 0; n < 3; n++) {
    const viewer = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { ...FROM_SITE, 'user-agent': `viewer-${n}` } });
    for (const id of ids.slice(0, 3 - n)) await viewer.patch(`/api/v1/videos/increment-views/${id}`);
    await viewer.dispose();
  }
  await api.patch(`/api/v1/videos/${ids[1]}`, { multipart: { visibility: 'unlisted' } });
  await api.patch(`/api/v1/videos/${ids[2]}`, { multipart: { publishAt: new Date(Date.now() + 3 * 86_400_000).toISOString() } });
  const state = await api.storageState();

  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({
      baseURL,
      colorScheme: scheme,
      viewport: { width: 1280, height: 800 },
      deviceScaleFactor: 1,
      storageState: state,
    });
    const page = await context.newPage();
    await page.goto(`/${user.username}/studio`);
    await expect(page.getByTestId('studio-row')).toHaveCount(VIDEOS.length);
    await shoot(page, `studio-desktop-${scheme}`);
    await page.getByTestId('studio-row').first().getByRole('button', { name: 'Numbers' }).click();
    await expect(page.getByTestId('views-chart')).toBeVisible();
    await shoot(page, `studio-chart-desktop-${scheme}`);
    await context.close();
  }
});
