import { expect, test } from './fixtures';
import { FIXTURES, signUpViaApi, uploadViaApi, waitReady } from './helpers';

/** An SRT file for the 5 s test clip; its second cue holds a word said nowhere else. */
export function captionsSrt(word: string): string {
  return [
    '1',
    '00:00:00,300 --> 00:00:02,000',
    'Hello from the <i>test pattern</i>',
    '',
    '2',
    '00:00:02,500 --> 00:00:04,800',
    `A ${word} glides past`,
    '',
  ].join('\r\n');
}

/**
 * Waits until playback is inside [from, to) (a transcript line's seek has taken), then pauses there
 * so the cue's checks do not race its end. Watched in the page, on every time update: a busy machine
 * can take longer than the window to answer a poll from the test.
 */
/**
 * Clicks `target` (a transcript line, which seeks and plays) and pauses the player as soon as it
 * plays between `from` and `to` s. The watch is set up in the page before the click, on every
 * `timeupdate` and `seeked`: on a busy machine a round trip can take longer than the window.
 */
async function clickAndPauseWithin(page: import('@playwright/test').Page, target: import('@playwright/test').Locator, from: number, to: number) {
  await page.locator('.rh-player video').evaluate(
    (v: HTMLVideoElement, [a, b]) => {
      (window as unknown as { pausedWithin: Promise<string> }).pausedWithin = new Promise<string>((resolve) => {
        const check = () => {
          if (v.currentTime < a! || v.currentTime >= b!) return;
          v.pause();
          stop();
          resolve('inside');
        };
        const stop = () => {
          v.removeEventListener('timeupdate', check);
          v.removeEventListener('seeked', check);
          clearTimeout(timer);
        };
        const timer = setTimeout(() => {
          stop();
          resolve(`at ${v.currentTime.toFixed(2)} s, ${v.paused ? 'paused' : 'playing'}`);
        }, 15_000);
        v.addEventListener('timeupdate', check);
        v.addEventListener('seeked', check);
      });
    },
    [from, to],
  );
  await target.click();
  const reached = await page.evaluate(() => (window as unknown as { pausedWithin: Promise<string> }).pausedWithin);
  expect(reached, `playback between ${from} and ${to} s`).toBe('inside');
}

/** The position of the page's video element. */
const currentTime = (page: import('@playwright/test').Page) => page.locator('.rh-player video').evaluate((v: HTMLVideoElement) => v.currentTime);

test('captions: the owner adds an SRT file, viewers turn captions on, read and follow the transcript, and find the video by a spoken word', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const word = `marmoset${Date.now().toString(36)}`;
  await signUpViaApi(page.request);
  const { _id: id } = await uploadViaApi(page.request, { title: 'Test pattern with a tone', description: 'Colour bars', file: FIXTURES.video });
  await waitReady(page.request, id);
  // Once the ladder exists the player keeps one source (it swaps to HLS only before playback starts).
  await expect
    .poll(async () => ((await (await page.request.get(`/api/v1/videos/${id}`)).json()) as { data: { hls: unknown } }).data.hls, { timeout: 90_000 })
    .not.toBeNull();

  // The owner adds the captions from the video page's owner tools.
  await page.goto(`/video/${id}`);
  await page.getByRole('button', { name: 'Captions', exact: true }).click();
  await page.getByLabel('Language', { exact: true }).fill('en');
  await page.getByLabel('Label').fill('English');
  await page.getByLabel('Caption file').setInputFiles({ name: 'captions.srt', mimeType: 'application/x-subrip', buffer: Buffer.from(captionsSrt(word)) });
  await page.getByRole('button', { name: 'Add captions' }).click();
  await expect(page.getByRole('list', { name: 'Captions of this video' }).getByText('English')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Captions (1)' })).toBeVisible();

  // The player offers the track: its captions button appears once it has tracks and its controls
  // show, which they do once playback has started and the pointer is over the player.
  const player = page.locator('.rh-player');
  const captionsButton = player.locator('button[data-media-tooltip="caption"]');
  await expect(captionsButton).toHaveAttribute('aria-hidden', 'false');
  await player.locator('.vds-play-button').first().click();
  await expect(player).toHaveAttribute('data-started', '', { timeout: 20_000 });
  // Paused early, so the 5 s clip has not ended (a play after the end starts over) when the transcript seeks.
  await player.locator('video').evaluate((v: HTMLVideoElement) => v.pause());
  await player.hover({ position: { x: 200, y: 150 } });
  await expect(captionsButton).toBeVisible();
  await captionsButton.click();
  await expect(captionsButton).toHaveAttribute('data-active', '');

  // The transcript: each line seeks the player, and the line being said is highlighted.
  await page.getByRole('button', { name: 'Show transcript' }).click();
  const transcript = page.getByTestId('transcript');
  await expect(transcript.getByRole('button')).toHaveCount(2);
  await expect(transcript.getByRole('button').first()).toContainText('00:00');
  await clickAndPauseWithin(page, transcript.getByRole('button', { name: new RegExp(`${word} glides past`) }), 2.5, 4.8);
  // The cue is on screen while its time plays, and the transcript marks its line.
  await expect(player.locator('.vds-captions')).toContainText(`A ${word} glides past`);
  await expect(transcript.getByRole('button', { name: new RegExp(word) })).toHaveAttribute('aria-current', 'true');
  await clickAndPauseWithin(page, transcript.getByRole('button', { name: /Hello from the test pattern/ }), 0.3, 2);
  await expect(player.locator('.vds-captions')).toContainText('Hello from the test pattern');
  await expect(transcript.getByRole('button', { name: /Hello from the test pattern/ })).toHaveAttribute('aria-current', 'true');

  // The choice is remembered: on the next visit the captions come on by themselves.
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('reelhouse:player') ?? '{}'))).toMatchObject({ lang: 'en', captions: true });
  await page.reload();
  await page.getByRole('button', { name: 'Show transcript' }).click();
  // Once the player has its media: before that, resuming where the viewer stopped still moves it.
  await expect.poll(() => page.locator('.rh-player video').evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  await clickAndPauseWithin(page, page.getByTestId('transcript').getByRole('button', { name: new RegExp(word) }), 2.5, 4.8);
  await expect(page.locator('.rh-player .vds-captions')).toContainText(`A ${word} glides past`);

  // Search finds the video by a word said only in its captions, and says where.
  await page.goto('/');
  await page.getByLabel('Search videos').fill(word);
  await page.getByRole('button', { name: 'Search' }).click();
  const match = page.getByTestId('caption-match');
  await expect(match).toHaveCount(1);
  await expect(match).toHaveText(`at 00:02: “A ${word} glides past”`);
  await match.click();
  await expect(page).toHaveURL(new RegExp(`/video/${id}\\?t=2$`));
  await expect.poll(() => currentTime(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
});
