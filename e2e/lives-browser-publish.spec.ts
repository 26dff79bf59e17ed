import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, watchForCspViolations } from './fixtures';
import { newUser } from './helpers';

// The publishing browser has Chromium's fake camera and microphone, and grants them without asking.
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--autoplay-policy=no-user-gesture-required',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ],
  },
});

type Envelope<T> = { statusCode: number; data: T; message: string };

async function data<T>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  const body = (await res.json()) as Envelope<T>;
  if (!res.ok()) throw new Error(`${res.url()} -> ${res.status()} ${body.message}`);
  return body.data;
}

/** Waits until the page's player has played past `seconds` of its current source. */
async function plays(page: Page, seconds: number, timeout: number) {
  await expect
    .poll(
      () =>
        page
          .locator('video')
          .first()
          .evaluate((v: HTMLVideoElement, s: number) => {
            if (v.paused) void v.play().catch(() => {});
            return v.currentTime > s;
          }, seconds),
      { timeout, intervals: [500] },
    )
    .toBe(true);
}

test('a channel goes live from the browser, a viewer watches it, and its replay plays once it ends', async ({ page, browser, baseURL }) => {
  test.setTimeout(300_000);
  const fromSite = { origin: baseURL! };
  const owner = newUser('pub');
  await data(
    await page.request.post('/api/v1/users/register', {
      headers: fromSite,
      multipart: { username: owner.username, email: owner.email, password: owner.password, fullName: owner.fullName },
    }),
  );
  await data(await page.request.post('/api/v1/users/login', { headers: fromSite, data: { email: owner.email, password: owner.password } }));
  const created = await data<{ video: { _id: string }; ingest: { browser: boolean } }>(
    await page.request.post('/api/v1/live', { headers: fromSite, data: { title: 'Live from the browser', description: 'The fake camera' } }),
  );
  expect(created.ingest.browser).toBe(true);
  const id = created.video._id;

  await page.goto(`/${owner.username}/studio/publish/${id}`);
  await expect(page.getByRole('heading', { name: 'Publish from this browser' })).toBeVisible();
  await expect(page.getByTestId('publish-status')).toHaveText('Not publishing');
  await page.getByRole('button', { name: 'Start publishing' }).click();
  await expect(page.getByTestId('publish-status')).toHaveText('Live', { timeout: 15_000 });
  // The preview shows what is sent.
  await expect.poll(() => page.getByTestId('publish-preview').evaluate((v: HTMLVideoElement) => v.videoWidth > 0 && v.muted)).toBe(true);
  await expect(page.getByTestId('publish-elapsed')).toHaveText(/^0:0[1-9]$/, { timeout: 10_000 });

  // Another browser context watches the live on its page.
  const viewerContext = await browser.newContext();
  const violations = watchForCspViolations(viewerContext);
  const viewer = await viewerContext.newPage();
  await expect
    .poll(async () => (await data<{ live: { status: string } }>(await viewer.request.get(`/api/v1/videos/${id}`))).live.status, { timeout: 30_000 })
    .toBe('live');
  await expect
    .poll(async () => (await viewer.request.get(`/media/videos/${id}/broadcast/master.m3u8`)).status(), { timeout: 30_000, intervals: [500] })
    .toBe(200);
  await viewer.goto(`/video/${id}`);
  // The machine is busy encoding the live: the page may take longer than usual to come up.
  await expect(viewer.getByRole('heading', { name: 'Live from the browser', level: 1 })).toBeVisible({ timeout: 30_000 });
  await plays(viewer, 2, 45_000);

  // The owner stops publishing and ends the live.
  await page.getByRole('button', { name: 'Stop publishing' }).click();
  await expect(page.getByTestId('publish-status')).toHaveText('Stopped');
  const ended = await data<{ live: { status: string } }>(await page.request.post(`/api/v1/live/${id}/end`, { headers: fromSite }));
  expect(ended.live.status).toBe('ended');

  // The recording becomes the replay at the same address, and it plays.
  await expect
    .poll(async () => (await data<{ status: string; hls: unknown }>(await page.request.get(`/api/v1/videos/${id}`))).status, {
      timeout: 120_000,
      intervals: [1000],
    })
    .toBe('ready');
  await viewer.goto(`/video/${id}`);
  // An ordinary video now: it waits for the viewer to press play (the controls show on hover).
  await viewer.locator('.rh-player').hover();
  await viewer.getByRole('button', { name: 'Play', exact: true }).first().click();
  await plays(viewer, 1, 45_000);
  expect(violations).toEqual([]);
  await viewerContext.close();
});
