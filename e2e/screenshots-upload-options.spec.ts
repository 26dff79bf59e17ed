import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { FROM_SITE } from './helpers';
import { lavfiClip, registerChannel, shoot } from './screenshot-kit';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-upload-options.spec.ts   (writes docs/screenshots/*.png)
/** Waits until the frame scrubber's video shows the frame at its current time. */
const frameShown = (page: Page) =>
  page
    .getByTestId('frame-preview')
    .evaluate((v: HTMLVideoElement) => new Promise((r) => (v.readyState >= 2 && !v.seeking ? r(null) : v.addEventListener('seeked', r, { once: true }))));

test('screenshots of the add-video page with a frame picked as the thumbnail and a scheduled private upload, light and dark', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const baseURL = test.info().project.use.baseURL!;
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
  const user = await registerChannel(api, 'Fractal Films', { prefix: 'options' });
  const state = await api.storageState();
  const { video } = lavfiClip('upload-options-shots', 'mandelbrot', 'mandelbrot=s=640x360:r=25', { seconds: 4 });

  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({
      baseURL,
      colorScheme: scheme,
      viewport: { width: 1280, height: 1000 },
      deviceScaleFactor: 1,
      storageState: state,
    });
    const page = await context.newPage();
    await page.goto(`/${user.username}/add-video`);
    await page.getByLabel('Video file (mp4)').setInputFiles(video);
    await expect(page.getByTestId('video-duration')).toHaveText('00:04');
    await page.getByLabel('Title').fill('Zooming into the Mandelbrot set');
    await page.getByLabel('Description').fill('Four seconds deeper into the set, made with ffmpeg. The thumbnail is a frame of the video itself.');
    await page.getByLabel('Pick a frame').check();
    await expect(page.getByLabel('Frame time')).toBeEnabled();
    await page.getByLabel('Frame time').fill('2.5');
    await frameShown(page);
    await page.getByLabel('Unlisted').check();
    await page
      .locator('[data-testid="video-drop-zone"] video')
      .evaluate((v: HTMLVideoElement) => new Promise((r) => (v.readyState >= 2 ? r(null) : v.addEventListener('seeked', r, { once: true }))));
    await shoot(page, `upload-options-frame-desktop-${scheme}`, { blur: true });

    await page.getByLabel('Private').check();
    await page.getByLabel('Schedule (optional)').fill('2026-12-24T18:00');
    await shoot(page, `upload-options-schedule-desktop-${scheme}`, { blur: true });
    await context.close();
  }
  await api.dispose();
});
