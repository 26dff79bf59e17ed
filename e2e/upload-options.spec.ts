import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { FIXTURES, playingTime, signUpViaApi, type TestUser } from './helpers';

/** A picture as 64x36 grey levels, decoded by ffmpeg (a WebP thumbnail, or a frame of a video at `at` seconds). */
function grey(file: string, at?: number): Buffer {
  return execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    ...(at === undefined ? [] : ['-ss', String(at)]),
    '-i',
    file,
    '-frames:v',
    '1',
    '-vf',
    'scale=64:36,format=gray',
    '-f',
    'rawvideo',
    '-',
  ]);
}
const difference = (a: Buffer, b: Buffer) => a.reduce((sum, v, i) => sum + Math.abs(v - b[i]!), 0) / a.length;

async function fillUpload(page: Page, user: TestUser, title: string) {
  await page.goto(`/${user.username}/add-video`);
  await page.getByLabel('Video file (mp4)').setInputFiles(FIXTURES.video);
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Description').fill(`${title}, with its options chosen at upload.`);
}

/** Uploads; answers the new video's id and the fields sent to make it (Chromium shows no body that holds a file). */
async function submit(page: Page): Promise<{ id: string; fields: string }> {
  const request = page.waitForRequest((r) => r.method() === 'POST' && /\/api\/v1\/uploads\/[^/]+\/video$/.test(r.url()));
  await page.getByRole('button', { name: 'Upload' }).click();
  const sent = (await request).postDataBuffer()?.toString('latin1') ?? '';
  await expect(page).toHaveURL(/\/video\/[A-Za-z0-9_-]+$/, { timeout: 60_000 });
  return { id: page.url().split('/').pop()!, fields: sent };
}

/** What someone else finds of the video titled `title`: the home page, a search for `word`, the owner's channel. */
async function asStranger(browser: Browser, owner: TestUser, id: string, word: string, title: string) {
  const context = await browser.newContext();
  const stranger = await context.newPage();
  await signUpViaApi(stranger.request);
  const home = stranger.waitForResponse((r) => /\/api\/v1\/videos\/\?/.test(r.url()) && !r.url().includes('query='));
  await stranger.goto('/');
  const onHome = ((await (await home).json()).data.videos as { _id: string }[]).some((v) => v._id === id);
  const searched = stranger.waitForResponse((r) => r.url().includes('/api/v1/videos/') && r.url().includes(`query=${word}`));
  await stranger.getByLabel('Search videos').fill(word);
  await stranger.getByLabel('Search videos').press('Enter');
  const inSearch = ((await (await searched).json()).data.videos as { _id: string }[]).some((v) => v._id === id);
  await expect(stranger.getByText(title)).toHaveCount(0);
  await stranger.goto(`/channel/${owner.username}`);
  await expect(stranger.getByText(`@${owner.username}`).first()).toBeVisible();
  await expect(stranger.getByText(title)).toHaveCount(0);
  return { stranger, context, onHome, inSearch };
}

test.describe('choosing options when uploading', () => {
  test('a frame picked on the add-video page becomes the thumbnail, cut from the uploaded file', async ({ page }) => {
    test.setTimeout(120_000);
    const user = await signUpViaApi(page.request);
    const word = `lynx${Date.now().toString(36)}`;
    await fillUpload(page, user, `The ${word} frame`);
    await page.getByLabel('Pick a frame').check();
    // The scrubber plays the chosen local file: no byte has been sent yet.
    await expect(page.getByTestId('frame-preview')).toHaveAttribute('src', /^blob:/);
    await expect(page.getByLabel('Frame time')).toBeEnabled();
    await page.getByLabel('Frame time').fill('3.5');
    await expect(page.getByText('Frame at 3.50 s')).toBeVisible();
    await expect.poll(() => page.getByTestId('frame-preview').evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(3.5, 1);
    const { id, fields } = await submit(page);
    expect(fields).toContain('name="thumbnailTime"\r\n\r\n3.50');
    expect(fields).not.toContain('name="thumbnail"');

    const video = (await (await page.request.get(`/api/v1/videos/${id}`)).json()).data;
    expect(video.thumbnail.url).toMatch(new RegExp(`/videos/${id}/thumbnail-[\\w-]+\\.webp$`));
    const served = await page.request.get(video.thumbnail.url);
    expect(served.headers()['content-type']).toContain('image/webp');
    const file = path.join(FIXTURES.dir, `served-${id}.webp`);
    fs.writeFileSync(file, await served.body());
    // The thumbnail is the frame at 3.5 s of the uploaded clip (testsrc2 moves, so another moment differs).
    const thumb = grey(file);
    fs.rmSync(file);
    expect(difference(thumb, grey(FIXTURES.video, 3.5))).toBeLessThan(6);
    expect(difference(thumb, grey(FIXTURES.video, 0.5))).toBeGreaterThan(12);

    // The channel's card shows it, loaded.
    await page.goto(`/channel/${user.username}`);
    const img = page.getByTestId('video-card').filter({ hasText: word }).locator('img').first();
    await expect(img).toHaveAttribute('src', video.thumbnail.url);
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(640);
  });

  test('an upload made unlisted is found by no one else, but plays by its link', async ({ page, browser }) => {
    test.setTimeout(120_000);
    const user = await signUpViaApi(page.request);
    const word = `serval${Date.now().toString(36)}`;
    await fillUpload(page, user, `The ${word} walk`);
    await page.getByLabel('Thumbnail').setInputFiles(FIXTURES.thumbnail);
    await page.getByLabel('Unlisted').check();
    await expect(page.getByText('Only people with the link can watch it')).toBeVisible();
    await expect(page.getByLabel('Schedule (optional)')).toHaveCount(0);
    const { id } = await submit(page);
    expect((await (await page.request.get(`/api/v1/videos/${id}`)).json()).data).toMatchObject({ visibility: 'unlisted', publishAt: null });

    const { stranger, context, onHome, inSearch } = await asStranger(browser, user, id, word, `The ${word} walk`);
    expect(onHome).toBe(false);
    expect(inSearch).toBe(false);
    await stranger.goto(`/video/${id}`);
    await expect(stranger.getByTestId('video-title')).toHaveText(`The ${word} walk`);
    await expect.poll(() => playingTime(stranger), { timeout: 20_000 }).toBeGreaterThan(0);
    await context.close();
  });

  test('a private upload with a schedule shows as scheduled in the studio and stays hidden until then', async ({ page, browser }) => {
    test.setTimeout(120_000);
    const user = await signUpViaApi(page.request);
    const word = `caracal${Date.now().toString(36)}`;
    await fillUpload(page, user, `The ${word} premiere`);
    await page.getByLabel('Thumbnail').setInputFiles(FIXTURES.thumbnail);
    await page.getByLabel('Private').check();
    // Two days ahead, in the browser's own time zone, as a person would pick it.
    const local = await page.evaluate(() => {
      const d = new Date(Date.now() + 2 * 86_400_000);
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
    });
    const expected = await page.evaluate((v) => new Date(v).toISOString(), local);
    await page.getByLabel('Schedule (optional)').fill(local);
    await expect(page.getByText('Private until then, public from then on')).toBeVisible();
    const { id } = await submit(page);
    const video = (await (await page.request.get(`/api/v1/videos/${id}`)).json()).data;
    expect(video).toMatchObject({ visibility: 'private', publishAt: expected, isPublished: false });
    await page.goto(`/${user.username}/studio`);
    const row = page.getByTestId('studio-row').filter({ hasText: `The ${word} premiere` });
    await expect(row).toContainText('Scheduled');

    const { stranger, context, onHome, inSearch } = await asStranger(browser, user, id, word, `The ${word} premiere`);
    expect(onHome).toBe(false);
    expect(inSearch).toBe(false);
    expect((await stranger.request.get(`/api/v1/videos/${id}`)).status()).toBe(404);
    await context.close();
  });
});
