import fs from 'node:fs';
import path from 'node:path';
import { CHAPTERS_DESCRIPTION, chaptersClip } from './chapters-media';
import { expect, test } from './fixtures';
import { FIXTURES, FROM_SITE, waitReady } from './helpers';
import { quantise, registerChannel, SHOTS_DIR } from './screenshot-kit';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-chapters.spec.ts   (writes docs/screenshots/*.png)

test('screenshots of the player with chapters, the seek bar hovered, light and dark', async ({ browser, playwright }) => {
  test.setTimeout(240_000);
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const baseURL = test.info().project.use.baseURL!;
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
  await registerChannel(api, 'Pattern Lab', { prefix: 'chapters' });
  const res = await api.post('/api/v1/videos/', {
    multipart: {
      title: 'A test pattern in three parts',
      description: CHAPTERS_DESCRIPTION,
      videoFile: { name: 'pattern.mp4', mimeType: 'video/mp4', buffer: fs.readFileSync(chaptersClip()) },
      thumbnail: { name: 'thumb.png', mimeType: 'image/png', buffer: fs.readFileSync(FIXTURES.thumbnail) },
    },
  });
  expect(res.ok()).toBe(true);
  const id = (await res.json()).data._id as string;
  await waitReady(api, id);
  // The seek preview and the chapter list show storyboard tiles once the background job made them.
  await expect
    .poll(async () => (await (await api.get(`/api/v1/videos/${id}`)).json()).data.storyboard, { timeout: 150_000, intervals: [1000, 2000] })
    .not.toBeNull();

  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ baseURL, colorScheme: scheme, viewport: { width: 1280, height: 980 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    // On a loaded machine the HLS player sometimes comes up without its chapters track (the journey
    // in chapters.spec.ts checks the track itself); a fresh load is enough for a picture.
    for (let attempt = 1; ; attempt++) {
      await page.goto(`/video/${id}`);
      const segments = page.locator('.vds-slider-chapters .vds-slider-chapter');
      const shown = await expect(segments)
        .toHaveCount(3, { timeout: 30_000 })
        .then(
          () => true,
          () => false,
        );
      if (shown) break;
      if (attempt === 3) await expect(segments).toHaveCount(3);
    }
    await page
      .getByTestId('chapter-list')
      .getByRole('button', { name: /Moving pattern/ })
      .click();
    await expect(page.locator('.vds-chapter-title')).toHaveText('Moving pattern');
    const video = page.locator('.rh-player video');
    // Paused a little into the chapter, wherever the busy machine let playback get to.
    await video.evaluate((v: HTMLVideoElement) => {
      v.pause();
      v.currentTime = 14;
    });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused && Math.abs(v.currentTime - 14) < 0.5)).toBe(true);
    await expect(page.getByTestId('chapter-list').locator('img').first()).toBeVisible();
    // Paused again right before the hover: paused, the controls stay up for the screenshot.
    await video.evaluate((v: HTMLVideoElement) => v.pause());
    const slider = (await page.locator('.vds-time-slider').boundingBox())!;
    await page.mouse.move(slider.x + slider.width * 0.5, slider.y - 100, { steps: 4 });
    await page.mouse.move(slider.x + slider.width * 0.8, slider.y + slider.height / 2, { steps: 4 });
    await expect(page.locator('.vds-slider-chapter-title')).toHaveText('Closing tone');
    await expect(page.locator('.vds-slider-chapter-title')).toBeVisible();
    // Taken at once, not by shoot(): the hover preview goes when the page is left to settle.
    const file = path.join(SHOTS_DIR, `player-chapters-desktop-${scheme}.png`);
    await page.screenshot({ path: file });
    quantise(file);
    await context.close();
  }
  await api.dispose();
});
