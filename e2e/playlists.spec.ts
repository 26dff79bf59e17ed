import { expect, test } from './fixtures';
import { FROM_SITE, loginViaUi, signUpViaApi, toast, uploadViaApi, waitReady } from './helpers';

test('a playlist made public shows on its channel, and another user plays it in order', async ({ page, playwright, baseURL, browser }) => {
  test.setTimeout(300_000);
  // The owner: two short videos in a playlist, made through the API, then made public on the page.
  const ownerApi = await playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
  const owner = await signUpViaApi(ownerApi);
  const first = await uploadViaApi(ownerApi, { title: 'Part one of the tour' });
  const second = await uploadViaApi(ownerApi, { title: 'Part two of the tour' });
  await waitReady(ownerApi, first._id);
  await waitReady(ownerApi, second._id);
  const made = await ownerApi.post('/api/v1/playlist/', { data: { name: 'The whole tour', description: 'Both parts, in order' } });
  const playlistId = (await made.json()).data._id as string;
  for (const v of [first, second]) expect((await ownerApi.patch(`/api/v1/playlist/add/${v._id}/${playlistId}`)).ok()).toBe(true);

  await loginViaUi(page, owner);
  await page.goto(`/playlist/${playlistId}`);
  const visibility = page.getByRole('radiogroup', { name: 'Visibility' });
  await expect(visibility.getByRole('radio', { name: 'Private' })).toHaveAttribute('aria-checked', 'true');
  await visibility.getByRole('radio', { name: 'Public' }).click();
  await expect(toast(page, 'Playlist is now public')).toBeVisible();
  await expect(visibility.getByRole('radio', { name: 'Public' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('link', { name: /Play all/ })).toHaveAttribute('href', `/video/${first._id}?list=${playlistId}`);

  // Another user finds it on the channel's Playlists page and plays it.
  const viewerContext = await browser.newContext({ baseURL });
  const viewerPage = await viewerContext.newPage();
  // Signing up through the page's own request context signs the page in as well.
  const viewer = await signUpViaApi(viewerPage.request);
  await viewerPage.goto(`/channel/${owner.username}/playlists`);
  const card = viewerPage.getByTestId('playlist-card').filter({ hasText: 'The whole tour' });
  await expect(card).toContainText('2 videos');
  await expect(card.locator('img')).toHaveAttribute('src', /\S/);
  await card.click();
  await expect(viewerPage).toHaveURL(new RegExp(`/video/${first._id}\\?list=${playlistId}$`));
  const panel = viewerPage.getByTestId('playlist-panel');
  await expect(panel).toContainText('The whole tour');
  await expect(panel).toContainText(owner.fullName);
  await expect(panel.getByTestId('playlist-position')).toHaveText('1 / 2');
  await expect(panel.getByRole('link', { name: /Part one of the tour/ })).toHaveAttribute('aria-current', 'true');
  await expect(panel.getByRole('link', { name: /Part two of the tour/ })).toHaveAttribute('href', `/video/${second._id}?list=${playlistId}`);

  // The viewer presses play; the first video plays to its end and the second then starts by itself.
  // (The player's button, not the element's play(): the player holds a press until its media can
  // play, where a play() on the element is undone when hls.js attaches to it.)
  await viewerPage.getByRole('button', { name: 'Play', exact: true }).first().click();
  await expect(viewerPage).toHaveURL(new RegExp(`/video/${second._id}\\?list=${playlistId}$`), { timeout: 30_000 });
  await expect(viewerPage.getByTestId('video-title')).toHaveText('Part two of the tour');
  await expect(panel.getByTestId('playlist-position')).toHaveText('2 / 2');
  await expect(panel.getByRole('link', { name: /Part two of the tour/ })).toHaveAttribute('aria-current', 'true');
  await expect
    .poll(
      () =>
        viewerPage
          .locator('video')
          .first()
          .evaluate((v: HTMLVideoElement) => v.currentTime > 0 || v.ended),
      { timeout: 20_000 },
    )
    .toBe(true);

  // Signed out, the channel lists it too; a private playlist of the channel stays off the page.
  await ownerApi.post('/api/v1/playlist/', { data: { name: 'Drafts only', description: 'Mine' } });
  const visitor = await browser.newContext({ baseURL });
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(`/channel/${owner.username}/playlists`);
  await expect(visitorPage.getByTestId('playlist-card')).toHaveCount(1);
  await expect(visitorPage.getByTestId('playlist-card')).toContainText('The whole tour');
  await visitorPage.goto(`/video/${second._id}?list=${playlistId}`);
  await expect(visitorPage.getByTestId('playlist-panel').getByTestId('playlist-position')).toHaveText('2 / 2', { timeout: 30_000 });

  // A channel without public playlists says so.
  await visitorPage.goto(`/channel/${viewer.username}/playlists`);
  await expect(visitorPage.getByText('This channel has no public playlists.')).toBeVisible();
  await Promise.all([viewerContext.close(), visitor.close(), ownerApi.dispose()]);
});
