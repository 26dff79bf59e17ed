import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { FIXTURES, FROM_SITE, newUser, slowUploads, waitReady, type TestUser } from './helpers';

// Run with: SCREENSHOTS=1 npx playwright test   (writes docs/screenshots/*.png)
const OUT = path.resolve(import.meta.dirname, '../docs/screenshots');

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

function makeMedia(i: number): { video: string; thumb: string } {
  const dir = path.join(FIXTURES.dir, 'shots');
  fs.mkdirSync(dir, { recursive: true });
  const video = path.join(dir, `v${i}.mp4`);
  const thumb = path.join(dir, `t${i}.jpg`);
  const src = SOURCES[i]!.src;
  const ff = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
  if (!fs.existsSync(video)) {
    ff(['-f', 'lavfi', '-i', src, '-f', 'lavfi', '-i', 'sine=f=330', '-t', '3', '-c:v', 'libx264', '-pix_fmt', 'yuv420p',
      '-c:a', 'aac', video]);
  }
  if (!fs.existsSync(thumb)) ff(['-f', 'lavfi', '-i', `${src}`, '-ss', '1', '-frames:v', '1', '-q:v', '4', thumb]);
  return { video, thumb };
}

async function register(request: APIRequestContext, fullName: string, avatarColor: string): Promise<TestUser> {
  const user = { ...newUser('chan'), fullName };
  const avatar = path.join(FIXTURES.dir, 'shots', `a-${avatarColor}.png`);
  fs.mkdirSync(path.dirname(avatar), { recursive: true });
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i',
    `gradients=s=128x128:c0=${avatarColor}:c1=0x111827:x0=0:y0=0:x1=128:y1=128:nb_colors=2`, '-frames:v', '1', avatar]);
  const res = await request.post('/api/v1/users/register', {
    multipart: {
      username: user.username, email: user.email, password: user.password, fullName: user.fullName,
      avatar: { name: 'a.png', mimeType: 'image/png', buffer: fs.readFileSync(avatar) },
      coverImage: { name: 'c.png', mimeType: 'image/png', buffer: fs.readFileSync(FIXTURES.cover) },
    },
  });
  expect(res.ok()).toBe(true);
  user._id = (await res.json()).data._id;
  await request.post('/api/v1/users/login', { data: { email: user.email, password: user.password } });
  return user;
}

async function shoot(page: Page, name: string) {
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => {});
  // Wait for the images in view (lazy ones further down never load on their own).
  await page.evaluate(() => {
    const inView = [...document.images].filter((i) => !i.complete && i.getBoundingClientRect().top < window.innerHeight);
    const loads = inView.map((i) => new Promise((r) => { i.addEventListener('load', r); i.addEventListener('error', r); }));
    return Promise.race([Promise.all(loads), new Promise((r) => setTimeout(r, 4000))]);
  });
  await page.waitForTimeout(300);
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file });
  // An 8-bit palette keeps the files small.
  const tmp = `${file}.tmp.png`;
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', file, '-vf',
    'split[a][b];[a]palettegen=max_colors=128:stats_mode=full[p];[b][p]paletteuse=dither=none', tmp]);
  fs.renameSync(tmp, file);
}

test('screenshots of home, player, upload and channel, light and dark, desktop and phone', async ({ browser, playwright }) => {
  test.setTimeout(240_000);
  fs.mkdirSync(OUT, { recursive: true });
  const baseURL = test.info().project.use.baseURL!;
  const studio = await playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
  const lab = await playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
  const creator = await register(studio, 'Pixel Studio', '0xe11d48');
  const other = await register(lab, 'Signal Lab', '0x4f46e5');
  const ids: string[] = [];
  for (let i = 0; i < SOURCES.length; i++) {
    const { video, thumb } = makeMedia(i);
    const ctx = i % 2 === 0 ? studio : lab;
    const res = await ctx.post('/api/v1/videos/', {
      multipart: {
        title: SOURCES[i]!.title,
        description: `${SOURCES[i]!.title}. Generated with ffmpeg's lavfi sources for the Reelhouse screenshots; every frame is computed, nothing is filmed.`,
        videoFile: { name: 'v.mp4', mimeType: 'video/mp4', buffer: fs.readFileSync(video) },
        thumbnail: { name: 't.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(thumb) },
      },
    });
    expect(res.ok()).toBe(true);
    ids.push((await res.json()).data._id);
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
        baseURL, colorScheme: scheme, viewport: device.viewport, deviceScaleFactor: 1, isMobile: device.isMobile,
        hasTouch: device.isMobile, storageState: state,
      });
      const page = await context.newPage();
      const tag = `${device.name}-${scheme}`;

      await page.goto('/');
      await expect(page.getByTestId('video-card')).toHaveCount(SOURCES.length);
      await shoot(page, `home-${tag}`);

      await page.goto(`/video/${ids[0]}`);
      await expect(page.locator('video').first()).toBeAttached();
      await page.locator('video').first().evaluate(async (v: HTMLVideoElement) => {
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
      await page.locator('[data-testid="video-drop-zone"] video').evaluate(
        (v: HTMLVideoElement) => new Promise((r) => (v.readyState >= 2 ? r(null) : v.addEventListener('seeked', r, { once: true }))),
      );
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
