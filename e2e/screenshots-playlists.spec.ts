import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { FIXTURES, FROM_SITE, newUser, waitReady } from './helpers';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-playlists.spec.ts   (writes docs/screenshots/*.png)
const OUT = path.resolve(import.meta.dirname, '../docs/screenshots');

const VIDEOS = [
  { src: 'mandelbrot=s=640x360', title: 'Zooming into the Mandelbrot set' },
  { src: 'smptehdbars=s=640x360', title: 'Colour bars, explained' },
  { src: 'gradients=s=640x360:c0=0xff7e5f:c1=0xfeb47b:speed=0.02', title: 'Sunset gradients to relax to' },
];

const ff = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

function media(i: number): { video: string; thumb: string } {
  const dir = path.join(FIXTURES.dir, 'playlist-shots');
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

test('screenshots of a channel\'s public playlists and a video playing in a playlist, light and dark', async ({ browser, playwright }) => {
  test.setTimeout(240_000);
  fs.mkdirSync(OUT, { recursive: true });
  const baseURL = test.info().project.use.baseURL!;
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
  const owner = { ...newUser('pls'), fullName: 'Pixel Studio' };
  expect((await api.post('/api/v1/users/register', { multipart: { username: owner.username, email: owner.email, password: owner.password, fullName: owner.fullName } })).ok()).toBe(true);
  expect((await api.post('/api/v1/users/login', { data: { email: owner.email, password: owner.password } })).ok()).toBe(true);

  const ids: string[] = [];
  for (const [i, v] of VIDEOS.entries()) {
    const { video, thumb } = media(i);
    const res = await api.post('/api/v1/videos/', {
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
  for (const id of ids) await waitReady(api, id);
  const lists = [
    { name: 'Everything, in order', videos: ids },
    { name: 'Calm colours', videos: [ids[2]!, ids[1]!] },
    { name: 'Fractals only', videos: [ids[0]!] },
  ];
  const made: string[] = [];
  for (const l of lists) {
    const id = (await (await api.post('/api/v1/playlist/', { data: { name: l.name, description: 'For the screenshots' } })).json()).data._id as string;
    for (const v of l.videos) expect((await api.patch(`/api/v1/playlist/add/${v}/${id}`)).ok()).toBe(true);
    expect((await api.patch(`/api/v1/playlist/${id}`, { data: { visibility: 'public' } })).ok()).toBe(true);
    made.push(id);
  }

  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ baseURL, colorScheme: scheme, viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const tag = `desktop-${scheme}`;
    await page.goto(`/channel/${owner.username}/playlists`);
    await expect(page.getByTestId('playlist-card')).toHaveCount(lists.length);
    await shoot(page, `channel-playlists-${tag}`);

    await page.goto(`/video/${ids[1]}?list=${made[0]}`);
    await expect(page.getByTestId('playlist-position')).toHaveText('2 / 3', { timeout: 30_000 });
    await shoot(page, `video-playlist-${tag}`);
    await context.close();
  }
  await api.dispose();
});
