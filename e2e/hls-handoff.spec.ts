import type { Request } from '@playwright/test';
import { expect, test } from './fixtures';
import { FROM_SITE, signUpViaApi, uploadViaApi, waitReady } from './helpers';

// hls.js is a chunk of its own. Until it arrives the player holds the ladder's address; a browser
// that plays HLS natively (Chromium does now) must not start playing it by itself, or hls.js throws
// that playback away when it takes over: the viewer's play is lost and the first segments load twice.
test('a viewer who presses play before hls.js has arrived sees the video play, and the browser never loads the ladder itself', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
  await signUpViaApi(api);
  const { _id: id } = await uploadViaApi(api, { title: 'Pressed early' });
  await waitReady(api, id);
  await expect
    .poll(async () => ((await (await api.get(`/api/v1/videos/${id}`)).json()) as { data: { hls: unknown } }).data.hls, { timeout: 90_000 })
    .toBeTruthy();

  // A slow connection: hls.js takes three seconds to arrive.
  await page.route(/\/assets\/hls\.light[^/]*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await route.continue();
  });
  const ladderFetches: Request[] = [];
  page.on('request', (r) => {
    if (r.url().includes(`/media/videos/${id}/hls/`)) ladderFetches.push(r);
  });

  await page.goto(`/video/${id}`);
  await page.getByRole('button', { name: 'Play', exact: true }).first().click();
  await expect
    .poll(
      () =>
        page
          .locator('video')
          .first()
          .evaluate((v: HTMLVideoElement) => v.currentTime > 0.3 || v.ended),
      { timeout: 30_000 },
    )
    .toBe(true);
  // It plays through Media Source Extensions, and the browser's own media loader fetched nothing.
  expect(
    await page
      .locator('video')
      .first()
      .evaluate((v: HTMLVideoElement) => v.currentSrc),
  ).toMatch(/^blob:/);
  expect(ladderFetches.length).toBeGreaterThan(0);
  expect(ladderFetches.filter((r) => r.resourceType() === 'media').map((r) => r.url())).toEqual([]);
  await api.dispose();
});
