import path from 'node:path';
import { expect, test } from './fixtures';
import { FIXTURES, FROM_SITE, signUpViaApi, uploadViaApi, waitReady } from './helpers';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-captions.spec.ts   (writes docs/screenshots/*.png)
const OUT = path.resolve(import.meta.dirname, '../docs/screenshots');

const SRT = [
  '1',
  '00:00:00,200 --> 00:00:02,400',
  'Colour bars, and a tone at 1 kHz',
  '',
  '2',
  '00:00:02,500 --> 00:00:04,900',
  'The <i>moving line</i> shows the picture is live',
  '',
].join('\r\n');

for (const scheme of ['light', 'dark'] as const) {
  test(`player with captions and the transcript (desktop, ${scheme})`, async ({ page }) => {
    test.setTimeout(150_000);
    await page.emulateMedia({ colorScheme: scheme });
    await signUpViaApi(page.request);
    const { _id: id } = await uploadViaApi(page.request, {
      title: 'Test pattern with a tone',
      description: 'Colour bars and a 1 kHz tone, five seconds.',
      file: FIXTURES.video,
    });
    await waitReady(page.request, id);
    await expect
      .poll(async () => ((await (await page.request.get(`/api/v1/videos/${id}`)).json()) as { data: { hls: unknown } }).data.hls, { timeout: 90_000 })
      .not.toBeNull();
    const added = await page.request.post(`/api/v1/videos/${id}/captions`, {
      headers: FROM_SITE,
      multipart: { language: 'en', label: 'English', file: { name: 'captions.srt', mimeType: 'application/x-subrip', buffer: Buffer.from(SRT) } },
    });
    expect(added.status()).toBe(201);
    // Captions on, as a viewer who turned them on before would have them.
    await page.addInitScript(() => localStorage.setItem('reelhouse:player', JSON.stringify({ lang: 'en', captions: true })));
    await page.goto(`/video/${id}`);
    await page.getByRole('button', { name: 'Show transcript' }).click();
    const line = page.getByTestId('transcript').getByRole('button', { name: /moving line/ });
    await line.click();
    await expect
      .poll(
        () =>
          page.locator('.rh-player video').evaluate((v: HTMLVideoElement) => {
            if (v.currentTime >= 3 && v.currentTime < 4.8) {
              v.pause();
              return true;
            }
            return false;
          }),
        { intervals: [50] },
      )
      .toBe(true);
    await expect(page.locator('.rh-player .vds-captions')).toContainText('moving line');
    await expect(line).toHaveAttribute('aria-current', 'true');
    await page.locator('.rh-player').hover({ position: { x: 300, y: 200 } });
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(OUT, `player-captions-desktop-${scheme}.png`) });
  });
}
