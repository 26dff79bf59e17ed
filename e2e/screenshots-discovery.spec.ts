import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { FIXTURES, FROM_SITE, newUser, waitReady, type TestUser } from './helpers';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-discovery.spec.ts   (writes docs/screenshots/*.png)
const OUT = path.resolve(import.meta.dirname, '../docs/screenshots');

const VIDEOS = [
  { src: 'mandelbrot=s=480x270', title: 'A slow dive into the Mandelbrot set', channel: 0, views: 40, position: null },
  { src: 'smptehdbars=s=480x270', title: 'Colour bars and what each one is for', channel: 1, views: 32, position: 5 },
  { src: 'life=s=480x270:mold=10:r=25:ratio=0.1:death_color=#101030:life_color=#40e0d0', title: 'Game of Life: gliders everywhere', channel: 0, views: 25, position: 8 },
  { src: 'gradients=s=480x270:c0=0xff7e5f:c1=0xfeb47b:speed=0.02', title: 'Warm gradients for a quiet evening', channel: 1, views: 18, position: null },
  { src: 'testsrc2=s=480x270', title: 'Test card with a moving ball', channel: 0, views: 9, position: 3 },
  { src: 'cellauto=s=480x270:rule=110', title: 'Rule 110, one line at a time', channel: 1, views: 4, position: null },
];
const SECONDS = 12;

const ff = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

function media(i: number): { video: string; thumb: string } {
  const dir = path.join(FIXTURES.dir, 'discovery-shots');
  fs.mkdirSync(dir, { recursive: true });
  const video = path.join(dir, `v${i}.mp4`);
  const thumb = path.join(dir, `t${i}.jpg`);
  const src = VIDEOS[i]!.src;
  if (!fs.existsSync(video)) {
    ff(['-f', 'lavfi', '-i', src, '-f', 'lavfi', '-i', 'sine=f=330', '-t', String(SECONDS), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', video]);
  }
  if (!fs.existsSync(thumb)) ff(['-f', 'lavfi', '-i', src, '-ss', '1', '-frames:v', '1', '-q:v', '4', thumb]);
  return { video, thumb };
}

async function register(request: APIRequestContext, fullName: string, color: string): Promise<TestUser> {
  const user = { ...newUser('dis'), fullName };
  const avatar = path.join(FIXTURES.dir, 'discovery-shots', `a-${color}.png`);
  fs.mkdirSync(path.dirname(avatar), { recursive: true });
  ff(['-f', 'lavfi', '-i', `gradients=s=128x128:c0=${color}:c1=0x111827:x0=0:y0=0:x1=128:y1=128:nb_colors=2`, '-frames:v', '1', avatar]);
  const res = await request.post('/api/v1/users/register', {
    multipart: {
      username: user.username, email: user.email, password: user.password, fullName,
      avatar: { name: 'a.png', mimeType: 'image/png', buffer: fs.readFileSync(avatar) },
    },
  });
  expect(res.ok()).toBe(true);
  user._id = (await res.json()).data._id;
  expect((await request.post('/api/v1/users/login', { data: { email: user.email, password: user.password } })).ok()).toBe(true);
  return user;
}

async function shoot(page: Page, name: string) {
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => {});
  await page.evaluate(() => {
    const pending = [...document.images].filter((i) => !i.complete && i.getBoundingClientRect().top < window.innerHeight);
    return Promise.race([Promise.all(pending.map((i) => new Promise((r) => { i.onload = r; i.onerror = r; }))), new Promise((r) => setTimeout(r, 4000))]);
  });
  await page.waitForTimeout(300);
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file });
  const tmp = `${file}.tmp.png`;
  ff(['-i', file, '-vf', 'split[a][b];[a]palettegen=max_colors=128:stats_mode=full[p];[b][p]paletteuse=dither=none', tmp]);
  fs.renameSync(tmp, file);
}

test('screenshots of the Trending tab and a video page with its Up next column, light and dark', async ({ browser, playwright }) => {
  test.setTimeout(300_000);
  fs.mkdirSync(OUT, { recursive: true });
  const baseURL = test.info().project.use.baseURL!;
  const api = (headers: Record<string, string> = {}) => playwright.request.newContext({ baseURL, extraHTTPHeaders: { ...FROM_SITE, ...headers } });
  const [studioApi, labApi, viewerApi] = await Promise.all([api(), api(), api()]);
  await register(studioApi, 'Pixel Studio', '0xe11d48');
  await register(labApi, 'Signal Lab', '0x4f46e5');
  await register(viewerApi, 'Ada Viewer', '0x059669');

  const ids: string[] = [];
  for (const [i, v] of VIDEOS.entries()) {
    const { video, thumb } = media(i);
    const res = await (v.channel === 0 ? studioApi : labApi).post('/api/v1/videos/', {
      multipart: {
        title: v.title,
        description: `${v.title}. Made with ffmpeg's lavfi sources for the screenshots.`,
        videoFile: { name: 'v.mp4', mimeType: 'video/mp4', buffer: fs.readFileSync(video) },
        thumbnail: { name: 't.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(thumb) },
      },
    });
    expect(res.ok()).toBe(true);
    ids.push((await res.json()).data._id);
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
    const context = await browser.newContext({ baseURL, colorScheme: scheme, viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, storageState: state });
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
