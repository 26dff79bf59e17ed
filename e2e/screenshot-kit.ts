import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Browser, BrowserContext, BrowserContextOptions, Locator, Page } from '@playwright/test';
import { expect } from './fixtures';
import { FIXTURES, newUser, type TestUser } from './helpers';

// What the screenshot runs (SCREENSHOTS=1) share: made-up media, channels with avatars, and the
// capture itself. Every picture lands in docs/screenshots. Run one file at a time: each expects an
// empty site, and the files run together would show each other's videos.

export const SHOTS_DIR = path.resolve(import.meta.dirname, '../docs/screenshots');

export const ff = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);

/** One way a page is looked at: colour scheme and screen; `name` ends each picture's file name. */
export interface Look {
  scheme: 'light' | 'dark';
  form: 'desktop' | 'phone';
  name: string;
}

/** Every picture is taken four ways: light and dark, on a desktop and on a phone. */
export const LOOKS: Look[] = (['light', 'dark'] as const).flatMap((scheme) =>
  (['desktop', 'phone'] as const).map((form) => ({ scheme, form, name: `${form}-${scheme}` })),
);

/** A browser context for one look (a desktop window or a phone's touch screen, at scale 1), with anything else it needs. */
export function lookContext(browser: Browser, baseURL: string, look: Look, more: BrowserContextOptions = {}): Promise<BrowserContext> {
  const phone = look.form === 'phone';
  return browser.newContext({
    baseURL,
    colorScheme: look.scheme,
    viewport: phone ? { width: 390, height: 844 } : { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    isMobile: phone,
    hasTouch: phone,
    ...more,
  });
}

/**
 * A clip of an ffmpeg lavfi source with a tone, and a frame of it as a JPEG thumbnail, made once
 * under the fixtures directory (`set` keeps each run's files apart).
 */
export function lavfiClip(set: string, name: string, src: string, { seconds = 2, fast = false } = {}): { video: string; thumb: string } {
  const dir = path.join(FIXTURES.dir, set);
  fs.mkdirSync(dir, { recursive: true });
  const video = path.join(dir, `${name}.mp4`);
  const thumb = path.join(dir, `${name}.jpg`);
  if (!fs.existsSync(video)) {
    ff([
      '-f',
      'lavfi',
      '-i',
      src,
      '-f',
      'lavfi',
      '-i',
      'sine=f=330',
      '-t',
      String(seconds),
      '-c:v',
      'libx264',
      ...(fast ? ['-preset', 'ultrafast'] : []),
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      video,
    ]);
  }
  if (!fs.existsSync(thumb)) ff(['-f', 'lavfi', '-i', src, '-ss', '1', '-frames:v', '1', '-q:v', '4', thumb]);
  return { video, thumb };
}

/**
 * A signed-in account on `request` with its full name; with `avatarColor`, a gradient avatar of that
 * colour (the same picture every run: the gradient's seed is fixed); with `cover`, the fixtures'
 * cover image.
 */
export async function registerChannel(
  request: APIRequestContext,
  fullName: string,
  { prefix, avatarColor, cover = false }: { prefix: string; avatarColor?: string; cover?: boolean },
): Promise<TestUser> {
  const user = { ...newUser(prefix), fullName };
  const images: Record<string, { name: string; mimeType: string; buffer: Buffer }> = {};
  if (avatarColor) {
    const avatar = path.join(FIXTURES.dir, 'shot-avatars', `a-${avatarColor}.png`);
    fs.mkdirSync(path.dirname(avatar), { recursive: true });
    ff(['-f', 'lavfi', '-i', `gradients=s=128x128:c0=${avatarColor}:c1=0x111827:x0=0:y0=0:x1=128:y1=128:nb_colors=2:seed=7`, '-frames:v', '1', avatar]);
    images.avatar = { name: 'a.png', mimeType: 'image/png', buffer: fs.readFileSync(avatar) };
  }
  if (cover) images.coverImage = { name: 'c.png', mimeType: 'image/png', buffer: fs.readFileSync(FIXTURES.cover) };
  const res = await request.post('/api/v1/users/register', {
    multipart: { username: user.username, email: user.email, password: user.password, fullName, ...images },
  });
  expect(res.ok()).toBe(true);
  user._id = (await res.json()).data._id;
  expect((await request.post('/api/v1/users/login', { data: { email: user.email, password: user.password } })).ok()).toBe(true);
  return user;
}

/** Uploads a clip with its JPEG thumbnail as the signed-in account of `request`; returns its id. */
export async function uploadClip(
  request: APIRequestContext,
  { title, description, video, thumb }: { title: string; description: string; video: string; thumb: string },
): Promise<string> {
  const res = await request.post('/api/v1/videos/', {
    multipart: {
      title,
      description,
      videoFile: { name: 'v.mp4', mimeType: 'video/mp4', buffer: fs.readFileSync(video) },
      thumbnail: { name: 't.jpg', mimeType: 'image/jpeg', buffer: fs.readFileSync(thumb) },
    },
  });
  expect(res.ok()).toBe(true);
  return (await res.json()).data._id as string;
}

/**
 * Saves the page as docs/screenshots/<name>.png once the network is quiet and the images in view
 * have loaded (lazy ones further down never load on their own), in an 8-bit palette that keeps the
 * files small. `blur` first drops the focus ring and scrolls to the top; `at` then scrolls a part of
 * the page that does not fit in view up to just below the header (a section further down a long page).
 */
export async function shoot(page: Page, name: string, { blur = false, at }: { blur?: boolean; at?: Locator } = {}): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => {});
  if (blur) {
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      window.scrollTo(0, 0);
    });
  }
  if (at) {
    await at.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const header = document.querySelector('header')?.getBoundingClientRect().height ?? 0;
      if (box.top >= header && box.bottom <= window.innerHeight) return;
      // Just below the fixed header, with a little room.
      window.scrollTo(0, box.top + window.scrollY - header - 16);
    });
  }
  await page.evaluate(() => {
    const pending = [...document.images].filter((i) => !i.complete && i.getBoundingClientRect().top < window.innerHeight);
    const loads = pending.map(
      (i) =>
        new Promise((r) => {
          i.addEventListener('load', r);
          i.addEventListener('error', r);
        }),
    );
    return Promise.race([Promise.all(loads), new Promise((r) => setTimeout(r, 4000))]);
  });
  await page.waitForTimeout(300);
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const file = path.join(SHOTS_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  quantise(file);
}

/** Rewrites a PNG in place with a 128-colour palette. */
export function quantise(file: string): void {
  const tmp = `${file}.tmp.png`;
  ff(['-i', file, '-vf', 'split[a][b];[a]palettegen=max_colors=128:stats_mode=full[p];[b][p]paletteuse=dither=none', tmp]);
  fs.renameSync(tmp, file);
}
