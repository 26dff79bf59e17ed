import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { FIXTURES, FROM_SITE, newUser } from './helpers';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-upload-options.spec.ts   (writes docs/screenshots/*.png)
const OUT = path.resolve(import.meta.dirname, '../docs/screenshots');
const ff = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

function media(): string {
  const dir = path.join(FIXTURES.dir, 'upload-options-shots');
  fs.mkdirSync(dir, { recursive: true });
  const video = path.join(dir, 'mandelbrot.mp4');
  if (!fs.existsSync(video)) {
    ff(['-f', 'lavfi', '-i', 'mandelbrot=s=640x360:r=25', '-f', 'lavfi', '-i', 'sine=f=330', '-t', '4', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', video]);
  }
  return video;
}

async function shoot(page: Page, name: string) {
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => {});
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await page.waitForTimeout(300);
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file });
  const tmp = `${file}.tmp.png`;
  ff(['-i', file, '-vf', 'split[a][b];[a]palettegen=max_colors=128:stats_mode=full[p];[b][p]paletteuse=dither=none', tmp]);
  fs.renameSync(tmp, file);
}

/** Waits until the frame scrubber's video shows the frame at its current time. */
const frameShown = (page: Page) => page.getByTestId('frame-preview').evaluate(
  (v: HTMLVideoElement) => new Promise((r) => (v.readyState >= 2 && !v.seeking ? r(null) : v.addEventListener('seeked', r, { once: true }))),
);

test('screenshots of the add-video page with a frame picked as the thumbnail and a scheduled private upload, light and dark', async ({ browser, playwright }) => {
  test.setTimeout(120_000);
  fs.mkdirSync(OUT, { recursive: true });
  const baseURL = test.info().project.use.baseURL!;
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
  const user = { ...newUser('options'), fullName: 'Fractal Films' };
  expect((await api.post('/api/v1/users/register', { multipart: { username: user.username, email: user.email, password: user.password, fullName: user.fullName } })).ok()).toBe(true);
  await api.post('/api/v1/users/login', { data: { email: user.email, password: user.password } });
  const state = await api.storageState();
  const video = media();

  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ baseURL, colorScheme: scheme, viewport: { width: 1280, height: 1000 }, deviceScaleFactor: 1, storageState: state });
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
    await page.locator('[data-testid="video-drop-zone"] video').evaluate(
      (v: HTMLVideoElement) => new Promise((r) => (v.readyState >= 2 ? r(null) : v.addEventListener('seeked', r, { once: true }))),
    );
    await shoot(page, `upload-options-frame-desktop-${scheme}`);

    await page.getByLabel('Private').check();
    await page.getByLabel('Schedule (optional)').fill('2026-12-24T18:00');
    await shoot(page, `upload-options-schedule-desktop-${scheme}`);
    await context.close();
  }
  await api.dispose();
});
