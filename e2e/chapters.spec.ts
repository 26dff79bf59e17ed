import type { Page } from '@playwright/test';
import { CHAPTERS_DESCRIPTION, chaptersClip } from './chapters-media';
import { expect, test } from './fixtures';
import { FROM_SITE, signUpViaApi, uploadViaApi, waitReady } from './helpers';

/**
 * Where the player's media element last finished seeking. Read from its `seeked` events rather than
 * from its clock: it plays on after a seek, and on a busy machine the next look may come seconds later.
 */
function lastSeek(page: Page): Promise<number | null> {
  return page.evaluate(() => (window as unknown as { seeks?: number[] }).seeks?.at(-1) ?? null);
}

async function recordSeeks(page: Page): Promise<void> {
  // Media events do not bubble, but they do pass the document in the capture phase.
  await page.addInitScript(() => {
    const w = window as unknown as { seeks: number[] };
    w.seeks = [];
    document.addEventListener('seeked', (event) => w.seeks.push((event.target as HTMLVideoElement).currentTime), true);
  });
}

/** The player sought to `seconds` (give or take the playback that a loaded machine lets slip by). */
async function expectSeekTo(page: Page, seconds: number): Promise<void> {
  await expect.poll(() => lastSeek(page)).toBeGreaterThanOrEqual(seconds - 0.1);
  expect(await lastSeek(page)).toBeLessThan(seconds + 2);
}

async function pause(page: Page): Promise<void> {
  await page.locator('.rh-player video').evaluate((video: HTMLVideoElement) => video.pause());
}

/**
 * Forgets earlier seeks and plays at a quarter of the speed, so a loaded machine's slow looks still
 * find the chapter the seek went to.
 */
async function beforeSeek(page: Page): Promise<void> {
  await page.locator('.rh-player video').evaluate((video: HTMLVideoElement) => {
    (window as unknown as { seeks: number[] }).seeks = [];
    video.playbackRate = 0.25;
  });
}

test('chapters on the seek bar and in a list, timestamps in the description and comments seek the player', async ({ page }) => {
  test.setTimeout(180_000);
  await signUpViaApi(page.request);
  const { _id } = await uploadViaApi(page.request, { title: 'Pattern in three parts', description: CHAPTERS_DESCRIPTION, file: chaptersClip() });
  await waitReady(page.request, _id);
  const comment = await page.request.post(`/api/v1/comments/${_id}`, { headers: FROM_SITE, data: { content: 'The pattern turns at 0:14, right?' } });
  expect(comment.ok()).toBe(true);

  const detail = await (await page.request.get(`/api/v1/videos/${_id}`)).json();
  expect(detail.data.chapters).toEqual([
    { start: 0, title: 'Opening' },
    { start: 12, title: 'Moving pattern' },
    { start: 25, title: 'Closing tone' },
  ]);

  await recordSeeks(page);
  await page.goto(`/video/${_id}`);
  // vidstack splits its seek bar into one segment per chapter once the media and the track are loaded.
  await expect(page.locator('.vds-slider-chapters .vds-slider-chapter')).toHaveCount(3, { timeout: 30_000 });

  const list = page.getByTestId('chapter-list');
  await expect(list.getByRole('button')).toHaveText([/Opening\s*0:00/, /Moving pattern\s*0:12/, /Closing tone\s*0:25/]);

  // The description: its timestamp is a link, the one past the end is text, the rest is exact.
  const description = page.getByTestId('description');
  await page.getByRole('button', { name: 'Show more' }).click();
  await expect(description).toHaveText(CHAPTERS_DESCRIPTION);
  await expect(description.getByRole('link', { name: '0:20' })).toHaveAttribute('href', '?t=20');
  await expect(description.getByRole('link', { name: '9:00' })).toHaveCount(0);

  await beforeSeek(page);
  await description.getByRole('link', { name: '0:20' }).click();
  await expectSeekTo(page, 20);
  expect(new URL(page.url()).search).toBe('');
  await pause(page);
  // Once playback has started, the current chapter's title stands beside the time.
  await expect(page.locator('.vds-chapter-title')).toHaveText('Moving pattern');

  await beforeSeek(page);
  await list.getByRole('button', { name: /Closing tone/ }).click();
  await expectSeekTo(page, 25);
  await pause(page);
  await expect(page.locator('.vds-chapter-title')).toHaveText('Closing tone');

  await beforeSeek(page);
  await page.getByTestId('comment').getByRole('link', { name: '0:14' }).click();
  await expectSeekTo(page, 14);
  await pause(page);
  await expect(page.locator('.vds-chapter-title')).toHaveText('Moving pattern');

  // Hovering the seek bar previews the chapter under the pointer. Each hover finds the bar where it
  // is now (scrolled into view, not under the sticky top bar) rather than where it was.
  const slider = page.locator('.vds-time-slider');
  const hoverAt = async (fraction: number) => {
    const box = (await slider.boundingBox())!;
    await slider.hover({ position: { x: box.width * fraction, y: box.height / 2 } });
  };
  // On a loaded machine a single move can go unseen (the controls hiding and showing again): the
  // pointer moves there again until the preview follows.
  const previewAt = (fraction: number, title: string) =>
    expect(async () => {
      await hoverAt(fraction);
      await expect(page.locator('.vds-slider-chapter-title')).toHaveText(title, { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
  await previewAt(0.05, 'Opening');
  await previewAt(0.8, 'Closing tone');
});

test('a description without chapters shows no chapter list and no segments', async ({ page }) => {
  test.setTimeout(120_000);
  await signUpViaApi(page.request);
  const { _id } = await uploadViaApi(page.request, { title: 'Two timestamps only', description: '0:00 Start\n0:30 End' });
  await waitReady(page.request, _id);
  await page.goto(`/video/${_id}`);
  await expect(page.locator('.rh-player video')).toBeAttached({ timeout: 30_000 });
  await expect(page.locator('.vds-time-slider')).toBeAttached();
  await expect(page.getByRole('region', { name: 'Chapters' })).toHaveCount(0);
  // Without a chapters track the seek bar is one whole segment.
  await expect(page.locator('.vds-slider-chapter')).toHaveCount(1);
});
