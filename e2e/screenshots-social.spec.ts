import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { FIXTURES, FROM_SITE, newUser, waitReady, type TestUser } from './helpers';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-social.spec.ts   (writes docs/screenshots/*.png)
const OUT = path.resolve(import.meta.dirname, '../docs/screenshots');

const VIDEOS = [
  { src: 'mandelbrot=s=640x360', title: 'Zooming into the Mandelbrot set', channel: 0 },
  { src: 'smptehdbars=s=640x360', title: 'Colour bars, explained', channel: 1 },
  { src: 'life=s=640x360:mold=10:r=30:ratio=0.1:death_color=#101030:life_color=#40e0d0', title: "Conway's Game of Life, live", channel: 0 },
  { src: 'gradients=s=640x360:c0=0xff7e5f:c1=0xfeb47b:speed=0.02', title: 'Sunset gradients to relax to', channel: 1 },
];

const ff = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

function media(i: number): { video: string; thumb: string } {
  const dir = path.join(FIXTURES.dir, 'social-shots');
  fs.mkdirSync(dir, { recursive: true });
  const video = path.join(dir, `v${i}.mp4`);
  const thumb = path.join(dir, `t${i}.jpg`);
  const src = VIDEOS[i]!.src;
  if (!fs.existsSync(video)) ff(['-f', 'lavfi', '-i', src, '-f', 'lavfi', '-i', 'sine=f=330', '-t', '2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', video]);
  if (!fs.existsSync(thumb)) ff(['-f', 'lavfi', '-i', src, '-ss', '1', '-frames:v', '1', '-q:v', '4', thumb]);
  return { video, thumb };
}

async function register(request: APIRequestContext, fullName: string, color: string): Promise<TestUser> {
  const user = { ...newUser('soc'), fullName };
  const avatar = path.join(FIXTURES.dir, 'social-shots', `a-${color}.png`);
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

test('screenshots of the Subscriptions tab, the notifications list and a video page with replies, light and dark', async ({ browser, playwright }) => {
  test.setTimeout(180_000);
  fs.mkdirSync(OUT, { recursive: true });
  const baseURL = test.info().project.use.baseURL!;
  const api = () => playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
  const [studioApi, labApi, viewerApi] = await Promise.all([api(), api(), api()]);
  const channels = [await register(studioApi, 'Pixel Studio', '0xe11d48'), await register(labApi, 'Signal Lab', '0x4f46e5')];
  const viewer = await register(viewerApi, 'Ada Viewer', '0x059669');
  for (const c of channels) expect((await viewerApi.post(`/api/v1/subscriptions/channel/${c._id}`)).ok()).toBe(true);

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
    const context = await browser.newContext({ baseURL, colorScheme: scheme, viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, storageState: state });
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
