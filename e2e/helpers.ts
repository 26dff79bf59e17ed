import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

const dir = path.join(os.tmpdir(), 'reelhouse-e2e-fixtures');
export const FIXTURES = {
  dir,
  video: path.join(dir, 'clip-5s.mp4'),
  smallVideo: path.join(dir, 'clip-1s.mp4'),
  /** 20 s of HEVC (what phones record): browsers cannot play it as it is. */
  hevcVideo: path.join(dir, 'clip-hevc-20s.mp4'),
  thumbnail: path.join(dir, 'thumb.png'),
  avatar: path.join(dir, 'avatar.png'),
  cover: path.join(dir, 'cover.png'),
};

export interface TestUser {
  username: string;
  email: string;
  password: string;
  fullName: string;
  _id?: string;
}

let counter = 0;
export function newUser(prefix = 'u'): TestUser {
  const id = `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}${Math.floor(Math.random() * 1e4)}`.toLowerCase();
  return { username: id, email: `${id}@example.com`, password: 'password-123', fullName: `Test ${id}` };
}

/** The journeys' server; cookie-authenticated changes must come from its origin (cross-site defence). */
export const SITE_ORIGIN = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 7123)}`;
/** Headers for API calls made outside the page, as the site's own pages would send them. */
export const FROM_SITE = { origin: SITE_ORIGIN };

type Envelope<T> = { statusCode: number; data: T; message: string; success: boolean };

async function ok<T>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  const body = (await res.json()) as Envelope<T>;
  if (!res.ok()) throw new Error(`${res.url()} -> ${res.status()} ${body.message}`);
  return body.data;
}

/** Registers and signs in through the API; with page.request the browser shares the cookies. */
export async function signUpViaApi(request: APIRequestContext, user = newUser()): Promise<TestUser> {
  const created = await ok<{ _id: string }>(
    await request.post('/api/v1/users/register', {
      headers: FROM_SITE,
      multipart: { username: user.username, email: user.email, password: user.password, fullName: user.fullName },
    }),
  );
  user._id = created._id;
  await ok(await request.post('/api/v1/users/login', { headers: FROM_SITE, data: { email: user.email, password: user.password } }));
  return user;
}

/** The journeys' admin (ADMIN_EMAILS): made on the first run, signed in on later ones. */
export async function signInAdmin(page: Page) {
  const admin = { ...newUser('adm'), email: 'e2e-admin@example.com' };
  await signUpViaApi(page.request, admin).catch(async () => {
    const res = await page.request.post('/api/v1/users/login', { headers: FROM_SITE, data: { email: admin.email, password: admin.password } });
    expect(res.ok()).toBe(true);
  });
}

export async function uploadViaApi(request: APIRequestContext, opts: { title: string; description?: string; file?: string }): Promise<{ _id: string }> {
  const file = opts.file ?? FIXTURES.smallVideo;
  return ok<{ _id: string }>(
    await request.post('/api/v1/videos/', {
      headers: FROM_SITE,
      multipart: {
        title: opts.title,
        description: opts.description ?? `About ${opts.title}`,
        videoFile: { name: path.basename(file), mimeType: 'video/mp4', buffer: fs.readFileSync(file) },
        thumbnail: { name: 'thumb.png', mimeType: 'image/png', buffer: fs.readFileSync(FIXTURES.thumbnail) },
      },
      timeout: 60_000,
    }),
  );
}

/** Waits until the server says the video is ready (progressive file playable). */
export async function waitReady(request: APIRequestContext, id: string, timeoutMs = 60_000): Promise<void> {
  await expect
    .poll(async () => (await ok<{ status: string }>(await request.get(`/api/v1/videos/${id}`))).status, {
      timeout: timeoutMs,
      intervals: [300, 500, 1000],
    })
    .toBe('ready');
}

export async function loginViaUi(page: Page, user: TestUser): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
}

export function toast(page: Page, text: string | RegExp) {
  return page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: text });
}

/** Throttles the page's uploads (Chromium network emulation) so upload progress can be watched; returns the undo. */
export async function slowUploads(page: Page, bytesPerSecond: number): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
  return async () => {
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  };
}

/**
 * The first video's position on the page, starting it (muted) when it is paused before its end:
 * the player swaps its source and pauses as it picks a rendition, and autoplay with sound is refused.
 */
export async function playingTime(page: Page): Promise<number> {
  return page
    .locator('video')
    .first()
    .evaluate((v: HTMLVideoElement) => {
      if (v.paused && !v.ended) {
        v.muted = true;
        v.play().catch(() => {});
      }
      return v.currentTime;
    });
}
