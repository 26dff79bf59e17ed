import { expect, test } from './fixtures';
import { FROM_SITE, waitReady } from './helpers';
import { lavfiClip, registerChannel, shoot, uploadClip } from './screenshot-kit';

// Run with: SCREENSHOTS=1 npx playwright test e2e/screenshots-playlists.spec.ts   (writes docs/screenshots/*.png)
const VIDEOS = [
  { src: 'mandelbrot=s=640x360', title: 'Zooming into the Mandelbrot set' },
  { src: 'smptehdbars=s=640x360', title: 'Colour bars, explained' },
  { src: 'gradients=s=640x360:c0=0xff7e5f:c1=0xfeb47b:speed=0.02', title: 'Sunset gradients to relax to' },
];

function media(i: number) {
  return lavfiClip('playlist-shots', `v${i}`, VIDEOS[i]!.src);
}

test("screenshots of a channel's public playlists and a video playing in a playlist, light and dark", async ({ browser, playwright }) => {
  test.setTimeout(240_000);
  const baseURL = test.info().project.use.baseURL!;
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: FROM_SITE });
  const owner = await registerChannel(api, 'Pixel Studio', { prefix: 'pls' });

  const ids: string[] = [];
  for (const [i, v] of VIDEOS.entries()) {
    const description = `${v.title}. Made with ffmpeg's lavfi sources for the screenshots.`;
    ids.push(await uploadClip(api, { title: v.title, description, ...media(i) }));
  }
  for (const id of ids) await waitReady(api, id);
  const lists = [
    { name: 'Everything, in order', videos: ids },
    { name: 'Calm colours', videos: [ids[2]!, ids[1]!] },
    { name: 'Fractals only', videos: [ids[0]!] },
  ];
  const made: string[] = [];
  for (const l of lists) {
    const id = (await (await api.post('/api/v1/playlist/', { data: { name: l.name, description: 'For the screenshots' } })).json()).data._id as string;
    for (const v of l.videos) expect((await api.patch(`/api/v1/playlist/add/${v}/${id}`)).ok()).toBe(true);
    expect((await api.patch(`/api/v1/playlist/${id}`, { data: { visibility: 'public' } })).ok()).toBe(true);
    made.push(id);
  }

  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ baseURL, colorScheme: scheme, viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const tag = `desktop-${scheme}`;
    await page.goto(`/channel/${owner.username}/playlists`);
    await expect(page.getByTestId('playlist-card')).toHaveCount(lists.length);
    await shoot(page, `channel-playlists-${tag}`);

    await page.goto(`/video/${ids[1]}?list=${made[0]}`);
    await expect(page.getByTestId('playlist-position')).toHaveText('2 / 3', { timeout: 30_000 });
    await shoot(page, `video-playlist-${tag}`);
    await context.close();
  }
  await api.dispose();
});
