import { expect, test } from './fixtures';
import { LIVE_ORIGIN, pushLive, waitOnAir } from './live-encoder';
import { LOOKS, lookContext, registerChannel, shoot } from './screenshot-kit';

// Run with: SCREENSHOTS=1 npx playwright test --project live   (writes docs/screenshots/lives-*.png)

const CHAT = [
  { who: 0, text: 'Evening everyone! The colours look great tonight' },
  { who: 1, text: 'First time here, what are we making?' },
  { who: 0, text: 'Is the sound a 440 Hz tone? 😄' },
  { who: 1, text: 'Saving this for later, the replay will be handy' },
];

test('screenshots of a live on air with its chat, an upcoming live and the Go live page, light and dark, desktop and phone', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(300_000);
  const baseURL = test.info().project.use.baseURL!;
  const headers = { origin: LIVE_ORIGIN };
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: headers });
  const owner = await registerChannel(api, 'Night Kitchen', { prefix: 'kitchen', avatarColor: '0xf97316' });
  const made = await api.post('/api/v1/live', {
    data: { title: 'Friday night cooking, live from the kitchen', description: 'Pasta from scratch, questions welcome in the chat.' },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const { video, streamKey, ingest } = (await made.json()).data as { video: { _id: string }; streamKey: string; ingest: { rtmp: string } };
  const scheduled = await api.post('/api/v1/live', {
    data: {
      title: 'Sunday brunch special',
      description: 'Pancakes three ways.',
      scheduledStart: new Date(Date.now() + (62 * 60 + 30) * 1000).toISOString(),
    },
  });
  expect(scheduled.ok()).toBe(true);
  const upcomingId = (await scheduled.json()).data.video._id as string;
  const ownerState = await api.storageState();

  const encoder = pushLive(`${ingest.rtmp}/${streamKey}`, 'smptehdbars=size=1280x720:rate=30');
  try {
    await waitOnAir(api, video._id);
    // Two viewers chat.
    const viewers = [];
    for (const [i, c] of [
      ['Ana Ribeiro', '0x0ea5e9'],
      ['Bo Lindqvist', '0x22c55e'],
    ].entries()) {
      const ctx = await playwright.request.newContext({ baseURL, extraHTTPHeaders: headers });
      await registerChannel(ctx, c[0]!, { prefix: `chat${i}`, avatarColor: c[1] });
      viewers.push(ctx);
    }
    for (const m of CHAT) expect((await viewers[m.who]!.post(`/api/v1/live/${video._id}/chat`, { data: { content: m.text } })).ok()).toBe(true);

    for (const look of LOOKS) {
      const context = await lookContext(browser, baseURL, look, { storageState: ownerState });
      const page = await context.newPage();

      // The live page on air, the owner watching: the player playing, LIVE, viewers, the chat.
      await page.goto(`/video/${video._id}`);
      await expect(page.getByTestId('live-badge').first()).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('chat-messages').getByText(CHAT[3]!.text)).toBeVisible();
      const player = page.locator('video').first();
      await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 }).toBeGreaterThan(1);
      // Not caught rebuffering (vidstack marks the player while it waits for data).
      await expect(page.locator('.rh-player[data-waiting]')).toHaveCount(0, { timeout: 15_000 });
      await shoot(page, `lives-on-air-${look.name}`);

      // An upcoming live: the countdown.
      await page.goto(`/video/${upcomingId}`);
      await expect(page.getByRole('timer')).toHaveText(/Live starts in 1 h 0\d min/);
      await shoot(page, `lives-upcoming-${look.name}`);

      // The Go live page of the live on air.
      await page.goto(`/${owner.username}/studio/live?live=${video._id}`);
      await expect(page.getByTestId('last-data')).toHaveText(/last data \d+ s ago/, { timeout: 15_000 });
      await expect(page.getByText('1280×720')).toBeVisible();
      await expect
        .poll(
          () =>
            page
              .locator('video')
              .first()
              .evaluate((v: HTMLVideoElement) => v.currentTime),
          { timeout: 30_000 },
        )
        .toBeGreaterThan(1);
      await expect(page.locator('.rh-player[data-waiting]')).toHaveCount(0, { timeout: 15_000 });
      await shoot(page, `lives-go-live-${look.name}`);

      // The home page's Live tab.
      await page.goto('/?tab=live');
      await expect(page.getByTestId('card-live-badge')).toBeVisible();
      await shoot(page, `lives-tab-${look.name}`);
      await context.close();
    }
    for (const v of viewers) await v.dispose();
  } finally {
    encoder.kill('SIGKILL');
    await api.dispose();
  }
});
