import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { waitReady } from './helpers';
import { actorAddress, HOST_B, SITE_A, SITE_B } from './federation-sites';
import { lavfiClip, lookContext, type Look, registerChannel, shoot, uploadClip } from './screenshot-kit';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-federation.spec.ts   (writes docs/screenshots/*.png)
// Site A follows a bakery channel of site B: the search that finds it, its page on A, one of its
// videos on A, and B's video page with a comment written on A.
const VIDEOS = [
  { src: 'gradients=s=640x360:c0=0xd97706:c1=0x7c2d12:speed=0.02', title: 'Rye bread at home, start to finish' },
  { src: 'cellauto=s=640x360:rule=110', title: 'Shaping a batard, slowly' },
];

const data = async <T>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> => {
  const body = await res.json();
  if (!res.ok()) throw new Error(`${res.url()} -> ${res.status()} ${body.message}`);
  return body.data as T;
};

const LOOKS: Look[] = [
  { scheme: 'light', form: 'desktop', name: 'desktop-light' },
  { scheme: 'dark', form: 'desktop', name: 'desktop-dark' },
  { scheme: 'light', form: 'phone', name: 'phone-light' },
];

test('screenshots of a channel of another server found by search, its page and video here, and a comment from here on its own site', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(240_000);
  const on = (site: string) => playwright.request.newContext({ baseURL: site, extraHTTPHeaders: { origin: site } });
  const [bakeryApi, neighbourApi, annApi] = await Promise.all([on(SITE_B), on(SITE_B), on(SITE_A)]);
  const bakery = await registerChannel(bakeryApi, 'Bea Bakes', { prefix: 'bea', avatarColor: '0xd97706', cover: true });
  await registerChannel(neighbourApi, 'Theo Crumb', { prefix: 'theo', avatarColor: '0x0891b2' });
  await registerChannel(annApi, 'Ann Rivers', { prefix: 'ann', avatarColor: '0x7c3aed' });

  const idsOnB: string[] = [];
  for (const [i, v] of VIDEOS.entries()) {
    const clip = lavfiClip('federation-shots', `v${i}`, v.src, { seconds: 4 });
    idsOnB.push(await uploadClip(bakeryApi, { title: v.title, description: `${v.title}. A loaf a week, all year.`, ...clip }));
  }
  for (const id of idsOnB) await waitReady(bakeryApi, id);

  // Ann, on A, looks the bakery up and follows it; its videos are then rows of A.
  const address = await actorAddress(bakeryApi, SITE_B, bakery.username);
  const remote = await data<{ _id: string; username: string }>(await annApi.get('/api/v1/federation/lookup', { params: { handle: address } }));
  await data(await annApi.post(`/api/v1/subscriptions/channel/${remote._id}`));
  const onA = await data<{ videos: { _id: string; title: string }[] }>(await annApi.get('/api/v1/videos/', { params: { userId: remote._id } }));
  const videoOnA = onA.videos.find((v) => v.title === VIDEOS[0]!.title)!._id;

  // Ann comments on A; a neighbour of the bakery comments on B; Ann's comment reaches B.
  await data(await annApi.post(`/api/v1/comments/${videoOnA}`, { data: { content: 'Baked this on Sunday: the crust sang as it cooled. Thank you!' } }));
  await data(await neighbourApi.post(`/api/v1/comments/${idsOnB[0]}`, { data: { content: 'How long do you proof it in the fridge?' } }));
  await expect
    .poll(async () => (await data<{ comments: { remote?: boolean }[] }>(await bakeryApi.get(`/api/v1/comments/${idsOnB[0]}`))).comments.some((c) => c.remote), {
      timeout: 30_000,
    })
    .toBe(true);
  const annState = await annApi.storageState();

  const settle = async (page: Page) => {
    await expect(page.locator('main img').first()).toBeVisible();
  };

  for (const look of LOOKS) {
    // On A, as Ann.
    const contextA = await lookContext(browser, SITE_A, look, { storageState: annState });
    const pageA = await contextA.newPage();
    await pageA.goto(`/?query=${encodeURIComponent(address)}`);
    await expect(pageA.getByTestId('remote-channel-card').getByRole('button', { name: 'Subscribed' })).toBeVisible({ timeout: 20_000 });
    await shoot(pageA, `federation-search-${look.name}`);

    await pageA.goto(`/channel/${remote.username}`);
    await expect(pageA.getByTestId('origin-badge')).toHaveText(`On ${HOST_B}`);
    await expect(pageA.getByTestId('video-card')).toHaveCount(VIDEOS.length);
    await settle(pageA);
    await shoot(pageA, `federation-channel-${look.name}`);

    await pageA.goto(`/video/${videoOnA}`);
    await expect(pageA.getByTestId('remote-video-origin')).toBeVisible();
    await expect(pageA.locator('video').first()).toBeAttached();
    await shoot(pageA, `federation-video-${look.name}`);
    await contextA.close();

    // On B, signed out: the video's comments, one of them written on A.
    const contextB = await lookContext(browser, SITE_B, look);
    const pageB = await contextB.newPage();
    await pageB.goto(`/video/${idsOnB[0]}`);
    const fromA = pageB.getByTestId('comment').filter({ hasText: 'the crust sang' });
    await expect(fromA.getByTestId('comment-origin')).toBeVisible();
    // The comments at the top of the view, just under the fixed top bar.
    await pageB.getByRole('heading', { name: /Comments?$/ }).evaluate((h) => h.scrollIntoView({ block: 'start' }));
    await pageB.evaluate(() => window.scrollBy(0, -72));
    await shoot(pageB, `federation-comments-${look.name}`);
    await contextB.close();
  }
});
