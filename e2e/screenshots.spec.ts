import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { FROM_SITE, slowUploads, waitReady } from './helpers';
import { lavfiClip, registerChannel, shoot, uploadClip } from './screenshot-kit';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots.spec.ts   (writes docs/screenshots/*.png)
const SOURCES = [
  { src: 'mandelbrot=s=640x360', title: 'Zooming into the Mandelbrot set for five minutes' },
  { src: 'smptehdbars=s=640x360', title: 'Calibrating a studio monitor: colour bars explained' },
  { src: 'testsrc2=s=640x360', title: 'Test pattern with a 440 Hz tone' },
  { src: 'life=s=640x360:mold=10:r=30:ratio=0.1:death_color=#101030:life_color=#40e0d0', title: "Conway's Game of Life, live" },
  { src: 'gradients=s=640x360:c0=0xff7e5f:c1=0xfeb47b:speed=0.02', title: 'Sunset gradients to relax to' },
  { src: 'cellauto=s=640x360:rule=110', title: 'Rule 110 cellular automaton, visualised' },
  { src: 'gradients=s=640x360:c0=0x1e3c72:c1=0x2a5298:c2=0x6dd5ed:nb_colors=3', title: 'Deep blue: an ambient loop' },
  { src: 'rgbtestsrc=s=640x360', title: 'RGB primaries in under a minute' },
];

function makeMedia(i: number) {
  return lavfiClip('shots', `v${i}`, SOURCES[i]!.src, { seconds: 3 });
}

const register = (request: APIRequestContext, fullName: string, avatarColor: string) =>
  registerChannel(request, fullName, { prefix: 'chan', avatarColor, cover: true });

test('screenshots of home, player, upload and channel, light and dark, desktop and phone', async ({ browser, playwright }) => {
  test.setTimeout(240_000);
  const baseURL = test.info().project.use.baseURL!;
  const studio = await playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
  const lab = await playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
  const creator = await register(studio, 'Pixel Studio', '0xe11d48');
  const other = await register(lab, 'Signal Lab', '0x4f46e5');
  const ids: string[] = [];
  for (let i = 0; i < SOURCES.length; i++) {
    const title = SOURCES[i]!.title;
    const description = `${title}. Generated with ffmpeg's lavfi sources for the Reelhouse screenshots; every frame is computed, nothing is filmed.`;
    ids.push(await uploadClip(i % 2 === 0 ? studio : lab, { title, description, ...makeMedia(i) }));
  }
  for (const [i, id] of ids.entries()) await waitReady(i % 2 === 0 ? studio : lab, id);
  for (const id of ids.slice(0, 5)) await lab.patch(`/api/v1/videos/increment-views/${id}`);
  expect((await lab.post(`/api/v1/subscriptions/channel/${creator._id}`)).ok()).toBe(true);
  expect((await studio.post(`/api/v1/subscriptions/channel/${other._id}`)).ok()).toBe(true);
  const state = await studio.storageState();

  for (const scheme of ['light', 'dark'] as const) {
    for (const device of [
      { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false },
      { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
    ]) {
      const context = await browser.newContext({
        baseURL,
        colorScheme: scheme,
        viewport: device.viewport,
        deviceScaleFactor: 1,
        isMobile: device.isMobile,
        hasTouch: device.isMobile,
        storageState: state,
      });
      const page = await context.newPage();
      const tag = `${device.name}-${scheme}`;

      await page.goto('/');
      await expect(page.getByTestId('video-card')).toHaveCount(SOURCES.length);
      await shoot(page, `home-${tag}`);

      await page.goto(`/video/${ids[0]}`);
      await expect(page.locator('video').first()).toBeAttached();
      await page
        .locator('video')
        .first()
        .evaluate(async (v: HTMLVideoElement) => {
          v.muted = true;
          await v.play();
          await new Promise((r) => setTimeout(r, 1200));
          v.pause();
        });
      await shoot(page, `player-${tag}`);

      await page.goto(`/${creator.username}/add-video`);
      await expect(page.getByRole('heading', { name: 'Add Video' })).toBeVisible();
      await shoot(page, `upload-${tag}`);
      // The same page with a video and a thumbnail chosen: what the browser read from the file.
      const { video, thumb } = makeMedia(2);
      await page.getByLabel('Video file (mp4)').setInputFiles(video);
      await expect(page.getByTestId('video-duration')).toHaveText('00:03');
      await page.getByLabel('Title').fill(SOURCES[2]!.title);
      await page.getByLabel('Description').fill('Three seconds of the testsrc2 pattern and a tone, made with ffmpeg.');
      await page.getByLabel('Thumbnail').setInputFiles(thumb);
      await expect(page.getByTestId('thumbnail-preview')).toBeVisible();
      await page
        .locator('[data-testid="video-drop-zone"] video')
        .evaluate((v: HTMLVideoElement) => new Promise((r) => (v.readyState >= 2 ? r(null) : v.addEventListener('seeked', r, { once: true }))));
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await shoot(page, `upload-filled-${tag}`);
      // Uploading on a slow link: progress, speed and time left, the fields still editable.
      const restoreUploads = await slowUploads(page, 24 * 1024);
      await page.getByRole('button', { name: 'Upload' }).click();
      await expect(page.getByTestId('upload-time-left')).toBeVisible({ timeout: 20_000 });
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await shoot(page, `upload-progress-${tag}`);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await restoreUploads();

      await page.goto(`/channel/${other.username}`);
      await expect(page.getByRole('heading', { name: 'Signal Lab' })).toBeVisible();
      await shoot(page, `channel-${tag}`);
      await context.close();
    }
  }
  await studio.dispose();
  await lab.dispose();
});
