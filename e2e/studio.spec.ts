import { expect, test } from './fixtures';
import { FROM_SITE, playingTime, signUpViaApi, toast, uploadViaApi, waitReady } from './helpers';

test.describe('creator studio', () => {
  test('a frame becomes the thumbnail, an unlisted video is found by no one else but plays by its link, the studio shows its numbers', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const owner = await signUpViaApi(page.request);
    const word = `okapi${Date.now().toString(36)}`;
    const { _id } = await uploadViaApi(page.request, { title: `The ${word} reel` });
    await waitReady(page.request, _id);
    const before = (await (await page.request.get(`/api/v1/videos/${_id}`)).json()).data.thumbnail.url as string;

    // Edit: a frame of the video as the thumbnail, and unlisted.
    await page.goto(`/video/${_id}`);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit video' });
    await dialog.getByLabel('Frame time').fill('0.5');
    await expect(dialog.getByText('Frame at 0.50 s')).toBeVisible();
    await dialog.getByLabel('Visibility').selectOption('unlisted');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(toast(page, 'Video updated successfully')).toBeVisible();
    const after = (await (await page.request.get(`/api/v1/videos/${_id}`)).json()).data;
    expect(after.visibility).toBe('unlisted');
    expect(after.thumbnail.url).not.toBe(before);
    expect((await page.request.get(after.thumbnail.url)).headers()['content-type']).toContain('image/webp');

    // Someone else: not on the home page, in search or on the channel, but the link plays.
    const context = await browser.newContext();
    const stranger = await context.newPage();
    await signUpViaApi(stranger.request);
    const home = stranger.waitForResponse((r) => /\/api\/v1\/videos\/\?/.test(r.url()) && !r.url().includes('query='));
    await stranger.goto('/');
    expect((await (await home).json()).data.videos.map((v: { _id: string }) => v._id)).not.toContain(_id);
    await expect(stranger.getByText(`The ${word} reel`)).toHaveCount(0);
    await stranger.getByLabel('Search videos').fill(word);
    const searched = stranger.waitForResponse((r) => r.url().includes('/api/v1/videos/') && r.url().includes(`query=${word}`));
    await stranger.getByLabel('Search videos').press('Enter');
    expect((await (await searched).json()).data.videos).toEqual([]);
    await expect(stranger.getByText(`The ${word} reel`)).toHaveCount(0);
    await stranger.goto(`/channel/${owner.username}`);
    await expect(stranger.getByText(`@${owner.username}`).first()).toBeVisible();
    await expect(stranger.getByText(`The ${word} reel`)).toHaveCount(0);
    await stranger.goto(`/video/${_id}`);
    await expect(stranger.getByTestId('video-title')).toHaveText(`The ${word} reel`);
    await expect.poll(() => playingTime(stranger), { timeout: 20_000 }).toBeGreaterThan(0);
    await context.close();

    // The studio: the video with its visibility and numbers, and its chart.
    // The count the increment answers is fresh; the video's own answer may lag by its cache's lifetime.
    const counted = await page.request.patch(`/api/v1/videos/increment-views/${_id}`, { headers: FROM_SITE });
    const views = (await counted.json()).data.views as number;
    await page.goto(`/${owner.username}`);
    await page.getByRole('link', { name: 'Studio' }).click();
    await expect(page.getByRole('heading', { name: 'Studio' })).toBeVisible();
    const row = page.getByTestId('studio-row').filter({ hasText: `The ${word} reel` });
    await expect(row).toContainText('Unlisted');
    await expect(row).toContainText('Ready');
    await expect(row.locator('td').nth(4)).toHaveText(String(views));
    await row.getByRole('button', { name: 'Numbers' }).click();
    const chart = page.getByTestId('views-chart');
    await expect(chart).toBeVisible();
    await expect(chart.locator('rect')).toHaveCount(28);
    await expect(chart.locator(`rect[data-views="${views}"]`).last()).toBeVisible();
    await expect(page.getByTestId('period-views')).toHaveText(String(views));
  });
});
