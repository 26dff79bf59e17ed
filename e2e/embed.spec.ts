import { expect, test } from './fixtures';
import { FIXTURES, FROM_SITE, SITE_ORIGIN, signUpViaApi, uploadViaApi, waitReady } from './helpers';
import { outsideSite } from './outside-site';

test.describe('embedding', () => {
  const opened: { close(): Promise<void> }[] = [];
  test.afterEach(async () => {
    for (const site of opened.splice(0)) await site.close();
  });

  test("another site frames the embed page and the video plays in it; the video page's HTML carries its preview tags", async ({ page }) => {
    test.setTimeout(120_000);
    await signUpViaApi(page.request);
    const title = 'Embedded "test" pattern <5s>';
    const { _id: id } = await uploadViaApi(page.request, { title, file: FIXTURES.video });
    await waitReady(page.request, id);
    // Captions travel with the embedded player too.
    const captions = await page.request.post(`/api/v1/videos/${id}/captions`, {
      headers: FROM_SITE,
      multipart: {
        language: 'en',
        label: 'English',
        file: { name: 'en.vtt', mimeType: 'text/vtt', buffer: Buffer.from('WEBVTT\n\n00:00.200 --> 00:04.500\nHello from the embedded player\n') },
      },
    });
    expect(captions.status()).toBe(201);

    // A plain GET, as a chat app's link unfurler makes it: the tags are in the HTML itself.
    const html = await (await page.request.get(`/video/${id}`)).text();
    expect(html).toContain(`<meta property="og:title" content="Embedded &quot;test&quot; pattern &lt;5s&gt;" />`);
    expect(html).toContain(`<meta property="og:url" content="${SITE_ORIGIN}/video/${id}" />`);
    expect(html).toContain('<meta property="og:type" content="video.other" />');
    expect(html).toMatch(/<meta property="og:image" content="http:\/\/[^"]+\/thumbnail[^"]*\.webp" \/>/);
    expect(html).toMatch(/<meta property="og:video" content="http:\/\/[^"]+\.mp4" \/>/);
    expect(html).toContain(`<meta name="twitter:player" content="${SITE_ORIGIN}/embed/${id}" />`);
    expect(html).toContain('type="application/json+oembed"');

    // The video page offers the iframe code.
    await page.goto(`/video/${id}`);
    await page.getByRole('button', { name: 'Embed' }).click();
    await expect(page.getByText('Embed code copied!')).toBeVisible();

    // What the oEmbed answer offers is what the outside page pastes.
    const oembed = await (await page.request.get(`/api/v1/oembed?url=${encodeURIComponent(`${SITE_ORIGIN}/video/${id}`)}`)).json();
    expect(oembed.html).toContain(`src="${SITE_ORIGIN}/embed/${id}"`);
    const outside = await outsideSite(`<!doctype html><html><head><title>A blog</title></head><body style="margin:24px;font-family:sans-serif">
      <h1>My post</h1><p>Look at this video:</p>${oembed.html}</body></html>`);
    opened.push(outside);
    await page.goto(outside.url);
    const frame = page.frameLocator('iframe');
    // The player alone: the title links to the video on the site; no top bar, sidebar or comments.
    const titleLink = frame.getByRole('link', { name: title });
    await expect(titleLink).toBeVisible();
    await expect(titleLink).toHaveAttribute('href', `/video/${id}`);
    await expect(frame.getByRole('button', { name: 'Logout' }).or(frame.getByRole('navigation'))).toHaveCount(0);
    await expect(frame.getByText(/comments/i)).toHaveCount(0);

    const video = frame.locator('video');
    await expect(video).toHaveCount(1);
    // The player is rebuilt once if the HLS version appears before playback starts, which cuts a
    // play() short: ask again until the video has played a little.
    await expect
      .poll(
        () =>
          video.evaluate(async (v: HTMLVideoElement) => {
            v.muted = true;
            await v.play().catch(() => {});
            return v.currentTime;
          }),
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0.5);
    expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);
    // The embedded player offers the video's captions: its captions button is shown once it has tracks.
    await expect(frame.locator('button[data-media-tooltip="caption"]')).toHaveAttribute('aria-hidden', 'false');
  });

  test('the embed page says so for a video nobody may watch, and only it may be framed', async ({ page }) => {
    const outside = await outsideSite(`<!doctype html><iframe src="${SITE_ORIGIN}/embed/AAAAAAAAAAAAAAAAAAAAAAAA" width="640" height="360"></iframe>`);
    opened.push(outside);
    await page.goto(outside.url);
    await expect(page.frameLocator('iframe').getByRole('alert')).toContainText('This video is unavailable.');
    await expect(page.frameLocator('iframe').getByRole('link', { name: 'Open on the site' })).toBeVisible();

    const embed = await page.request.get('/embed/AAAAAAAAAAAAAAAAAAAAAAAA');
    expect(embed.headers()['content-security-policy']).toContain('frame-ancestors *');
    for (const path of ['/', '/video/AAAAAAAAAAAAAAAAAAAAAAAA', '/login']) {
      expect((await page.request.get(path)).headers()['content-security-policy'], path).toContain("frame-ancestors 'none'");
    }
  });
});
