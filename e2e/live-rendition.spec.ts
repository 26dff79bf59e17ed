import { expect, test } from './fixtures';
import { FIXTURES, signUpViaApi, uploadViaApi } from './helpers';

test.describe('an upload browsers cannot play as it is', () => {
  test('an HEVC upload starts playing within seconds of the upload finishing, from its live rendition', async ({ page }) => {
    test.setTimeout(120_000);
    await signUpViaApi(page.request);
    const liveRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/live/')) liveRequests.push(r.url());
    });

    const { _id: id } = await uploadViaApi(page.request, { title: 'Phone clip in HEVC', file: FIXTURES.hevcVideo });
    const uploaded = Date.now();
    await page.goto(`/video/${id}`);
    // The page polls while processing; the player appears once the first live segment is stored.
    const video = page.locator('video').first();
    await expect(video).toBeAttached({ timeout: 30_000 });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentSrc), { timeout: 20_000 }).toMatch(/^blob:/);
    await video.evaluate(async (v: HTMLVideoElement) => {
      v.muted = true;
      await v.play();
    });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000, intervals: [100] }).toBeGreaterThan(0.2);
    const startedAfter = (Date.now() - uploaded) / 1000;
    test.info().annotations.push({ type: 'playing after', description: `${startedAfter.toFixed(1)} s` });
    console.log(`HEVC upload playing ${startedAfter.toFixed(1)} s after the upload finished`);
    // The player started at the beginning, on the live playlist and its segments, as H.264.
    expect(liveRequests.some((u) => u.endsWith('/live/index.m3u8'))).toBe(true);
    expect(liveRequests.some((u) => /\/live\/seg-\d+\.m4s$/.test(u))).toBe(true);
    expect(await video.evaluate((v: HTMLVideoElement) => v.videoHeight)).toBe(360);
    // "Within seconds" on a small shared machine; an idle one starts in two or three.
    expect(startedAfter).toBeLessThan(20);

    // It keeps playing past what the first segments held, following the growing playlist.
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 40_000 }).toBeGreaterThan(6);
    if (process.env.LIVE_SCREENSHOT) await page.screenshot({ path: process.env.LIVE_SCREENSHOT });
  });
});
