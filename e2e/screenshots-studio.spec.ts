import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { FIXTURES, FROM_SITE, newUser, waitReady } from './helpers';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-studio.spec.ts   (writes docs/screenshots/*.png)
const OUT = path.resolve(import.meta.dirname, '../docs/screenshots');
const VIDEOS = [
  { src: 'mandelbrot=s=640x360', title: 'Zooming into the Mandelbrot set' },
  { src: 'smptehdbars=s=640x360', title: 'Colour bars, explained' },
  { src: 'gradients=s=640x360:c0=0xff7e5f:c1=0xfeb47b:speed=0.02', title: 'Sunset gradients to relax to' },
];
const ff = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

function media(i: number): { video: string; thumb: string } {
  const dir = path.join(FIXTURES.dir, 'studio-shots');
  fs.mkdirSync(dir, { recursive: true });
  const video = path.join(dir, `v${i}.mp4`);
  const thumb = path.join(dir, `t${i}.jpg`);
  const src = VIDEOS[i]!.src;
  if (!fs.existsSync(video)) ff(['-f', 'lavfi', '-i', src, '-f', 'lavfi', '-i', 'sine=f=330', '-t', '2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', video]);
  if (!fs.existsSync(thumb)) ff(['-f', 'lavfi', '-i', src, '-ss', '1', '-frames:v', '1', '-q:v', '4', thumb]);
  return { video, thumb };
}

async function shoot(page: Page, name: string) {
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => {});
  await page.waitForTimeout(300);
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file });
  const tmp = `${file}.tmp.png`;
  ff(['-i', file, '-vf', 'split[a][b];[a]palettegen=max_colors=128:stats_mode=full[p];[b][p]paletteuse=dither=none', tmp]);
  fs.renameSync(tmp, file);
}

test('screenshots of the studio list and a video\'s chart, light and dark', async ({ browser, playwright }) => {
  test.setTimeout(180_000);
  fs.mkdirSync(OUT, { recursive: true });
  const baseURL = test.info().project.use.baseURL!;
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
  const user = { ...newUser('studio'), fullName: 'Pixel Studio' };
  expect((await api.post('/api/v1/users/register', { multipart: { username: user.username, email: user.email, password: user.password, fullName: user.fullName } })).ok()).toBe(true);
  await api.post('/api/v1/users/login', { data: { email: user.email, password: user.password } });
  const ids: string[] = [];
  for (let i = 0; i < VIDEOS.length; i++) {
    const { video, thumb } = media(i);
    const res = await api.post('/api/v1/videos/', {
      multipart: {
        title: VIDEOS[i]!.title, description: `${VIDEOS[i]!.title}, made with ffmpeg.`,
        videoFile: { name: 'v.mp4', mimeType: 'video/mp4', buffer: fs.readFileSync(video) },
        thumbnail: { name: 't.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(thumb) },
      },
    });
    expect(res.ok()).toBe(true);
    ids.push((await res.json()).data._id);
  }
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
    const context = await browser.newContext({ baseURL, colorScheme: scheme, viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, storageState: state });
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
