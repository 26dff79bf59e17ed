import type { APIRequestContext } from '@playwright/test';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { loginViaUi, playingTime } from './helpers';
import { actorAddress, apiContext, HOST_A, HOST_B, memberOf, publishOn, SITE_A, SITE_B } from './federation-sites';
import { LOOKS, lookContext } from './screenshot-kit';

// Two real sites (A at 127.0.0.2, B at 127.0.0.3) speaking ActivityPub to each other over plain
// http: a member of A finds a channel of B by its actor's address (handles need https), follows it,
// watches and comments there, and B's next upload reaches A's subscriptions feed.

test('a member of one site follows a channel of another, watches and comments there, and gets its next upload', async ({ page, playwright, browser }) => {
  test.setTimeout(420_000);

  // On B: a channel with a video.
  const channelApi = await apiContext(playwright);
  const channel = await memberOf(channelApi, SITE_B, { prefix: 'bea', fullName: 'Bea Bakes' });
  const videoOnB = await publishOn(channelApi, SITE_B, { title: 'Rye bread at home' });
  const address = await actorAddress(channelApi, SITE_B, channel.username);
  const remoteName = `${channel.username}@${HOST_B}`;

  // On A: a member searches for the channel's address and finds it above the site's own results.
  const member = await memberOf(await apiContext(playwright), SITE_A, { prefix: 'ann' });
  await loginViaUi(page, member);
  const fromB: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(`${SITE_B}/media/`)) fromB.push(r.url());
  });
  await page.goto('/');
  await page.getByLabel('Search videos').fill(address);
  await page.getByRole('button', { name: 'Search' }).click();
  const card = page.getByTestId('remote-channel-card');
  await expect(card).toBeVisible({ timeout: 20_000 });
  await expect(card.getByRole('heading', { name: 'Bea Bakes' })).toBeVisible();
  await expect(card).toContainText(`@${remoteName}`);
  await expect(card.getByTestId('origin-badge')).toHaveText(`On ${HOST_B}`);
  await card.getByRole('button', { name: 'Subscribe' }).click();
  // The first follow makes the member's channel its key pair and queues a signed Follow: slow on a busy machine.
  await expect(card.getByRole('button', { name: 'Subscribed' })).toBeVisible({ timeout: 30_000 });

  // Its page here: the handle, where it lives, a link there, and the video it had.
  await card.getByRole('link', { name: 'View channel' }).click();
  await expect(page).toHaveURL(`${SITE_A}/channel/${remoteName}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Bea Bakes' })).toBeVisible();
  await expect(page.getByText(`@${remoteName}`)).toBeVisible();
  await expect(page.getByTestId('origin-badge')).toHaveText(`On ${HOST_B}`);
  const there = page.getByRole('link', { name: `View on ${HOST_B}` });
  await expect(there).toHaveAttribute('href', new RegExp(`^${SITE_B}/`));
  await expect(there).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(page.getByRole('button', { name: 'Subscribed' })).toBeVisible();

  // The video plays on A from B's media.
  await page.getByRole('link', { name: 'Rye bread at home' }).first().click();
  await expect(page.getByTestId('video-title')).toHaveText('Rye bread at home');
  const origin = page.getByTestId('remote-video-origin');
  await expect(origin).toContainText(`From ${HOST_B}`);
  await expect(origin.getByRole('link', { name: 'View the original' })).toHaveAttribute('href', new RegExp(`^${SITE_B}/`));
  await expect(page.locator('video').first()).toBeAttached({ timeout: 20_000 });
  await expect.poll(() => playingTime(page), { timeout: 30_000 }).toBeGreaterThan(0.5);
  expect(fromB.length, "requests for B's media").toBeGreaterThan(0);

  // A comment written on A reaches B, under A's member's handle.
  await page.getByLabel('Add a comment').fill('Baked it this morning, lovely crumb');
  await page.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(page.getByTestId('comment').filter({ hasText: 'Baked it this morning' })).toBeVisible();

  const onB = await browser.newContext({ baseURL: SITE_B });
  const pageB = await onB.newPage();
  await pageB.goto(`/video/${videoOnB}`);
  const fromA = pageB.getByTestId('comment').filter({ hasText: 'Baked it this morning, lovely crumb' });
  await expect(async () => {
    await pageB.reload();
    await expect(fromA).toBeVisible({ timeout: 3_000 });
    // A delivery that fails on a busy machine is sent again after the library's backoff.
  }).toPass({ timeout: 120_000 });
  await expect(fromA.getByRole('link', { name: `@${member.username}@${HOST_A}` })).toBeVisible();
  await expect(fromA.getByTestId('comment-origin')).toHaveAttribute('href', new RegExp(`^${SITE_A}/`));
  await onB.close();

  // B's next upload reaches A's member's subscriptions feed.
  await publishOn(channelApi, SITE_B, { title: 'Sourdough starter, day one' });
  await page.goto('/?tab=subscriptions');
  const fresh = page.getByRole('link', { name: 'Sourdough starter, day one' }).first();
  await expect(async () => {
    await page.reload();
    await expect(fresh).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 120_000 });
  await expect(page.getByTestId('card-remote-mark').first()).toHaveAccessibleName(`From ${HOST_B}`);
});

async function data<T>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  const body = await res.json();
  if (!res.ok()) throw new Error(`${res.url()} -> ${res.status()} ${body.message}`);
  return body.data as T;
}

test('axe finds nothing serious on the pages of a channel of another server, its video, and comments from elsewhere', async ({ browser, playwright }) => {
  test.setTimeout(240_000);
  const channelApi = await apiContext(playwright);
  const channel = await memberOf(channelApi, SITE_B, { prefix: 'axb' });
  const videoOnB = await publishOn(channelApi, SITE_B, { title: 'An accessible loaf' });
  const address = await actorAddress(channelApi, SITE_B, channel.username);
  const memberApi = await apiContext(playwright);
  await memberOf(memberApi, SITE_A, { prefix: 'axa' });
  const remote = await data<{ _id: string; username: string }>(await memberApi.get(`${SITE_A}/api/v1/federation/lookup`, { params: { handle: address } }));
  await data(await memberApi.post(`${SITE_A}/api/v1/subscriptions/channel/${remote._id}`, { headers: { origin: SITE_A } }));
  const { videos } = await data<{ videos: { _id: string }[] }>(await memberApi.get(`${SITE_A}/api/v1/videos/`, { params: { userId: remote._id } }));
  const videoOnA = videos[0]!._id;
  await data(await memberApi.post(`${SITE_A}/api/v1/comments/${videoOnA}`, { headers: { origin: SITE_A }, data: { content: 'Written on A' } }));
  await expect
    .poll(async () => (await data<{ comments: { remote?: boolean }[] }>(await channelApi.get(`${SITE_B}/api/v1/comments/${videoOnB}`))).comments.length, {
      timeout: 30_000,
    })
    .toBe(1);
  const memberState = await memberApi.storageState();

  const found: string[] = [];
  // Both schemes and both forms, in two looks: the site-wide sweeps check every look of the pages
  // themselves, and this one the parts that only a remote channel, video or comment shows.
  for (const look of LOOKS.filter((l) => l.name === 'desktop-light' || l.name === 'phone-dark')) {
    const sweep = async (site: string, routes: string[], signedIn: boolean) => {
      const context = await lookContext(browser, site, look, signedIn ? { storageState: memberState } : {});
      const page = await context.newPage();
      for (const route of routes) {
        await page.goto(route);
        await page.waitForLoadState('networkidle');
        await expect(page.locator('main')).toBeVisible();
        if (route.startsWith('/?query=')) await expect(page.getByTestId('remote-channel-card')).toBeVisible();
        found.push(...(await seriousViolations(page, `${look.name} ${site}${route}`)));
      }
      await context.close();
    };
    await sweep(SITE_A, [`/?query=${encodeURIComponent(address)}`, `/channel/${remote.username}`, `/video/${videoOnA}`], true);
    await sweep(SITE_B, [`/video/${videoOnB}`], false);
  }
  expect(found).toEqual([]);
});
