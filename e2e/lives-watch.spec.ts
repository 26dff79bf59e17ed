import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, watchForCspViolations } from './fixtures';
import { newUser, type TestUser } from './helpers';
import { LIVE_ORIGIN, pushLive } from './live-encoder';

const FROM_LIVE_SITE = { origin: LIVE_ORIGIN };

async function signUp(request: APIRequestContext): Promise<TestUser> {
  const user = newUser('live');
  const made = await request.post('/api/v1/users/register', {
    headers: FROM_LIVE_SITE,
    multipart: { username: user.username, email: user.email, password: user.password, fullName: user.fullName },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const signedIn = await request.post('/api/v1/users/login', { headers: FROM_LIVE_SITE, data: { email: user.email, password: user.password } });
  expect(signedIn.ok()).toBe(true);
  return user;
}

/** Playback really moves: the element's time advances by more than a second. */
async function expectPlaying(page: Page) {
  const video = page.locator('video').first();
  await expect(video).toBeAttached({ timeout: 30_000 });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000, intervals: [250] }).toBeGreaterThan(0.5);
  const before = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000, intervals: [250] }).toBeGreaterThan(before + 1);
}

test.describe('going live and watching', () => {
  test('a channel goes live from the Go live page with an encoder; viewers watch, chat and are counted; the owner ends it and the replay plays', async ({
    page,
    browser,
  }) => {
    test.setTimeout(240_000);
    const owner = await signUp(page.request);

    // The Go live page: a new live, then its server URL and (hidden) stream key.
    await page.goto(`/${owner.username}/studio/live`);
    await page.getByLabel('Title').fill('Kitchen live');
    await page.getByLabel('Description').fill('Cooking on air');
    await page.getByRole('button', { name: 'Create live' }).click();
    await expect(page).toHaveURL(/\?live=/);
    const videoId = new URL(page.url()).searchParams.get('live')!;
    await expect(page.getByTestId('go-live-title')).toHaveText('Kitchen live');
    const rtmp = await page.getByRole('textbox', { name: 'Server URL' }).inputValue();
    expect(rtmp).toBe(`rtmp://127.0.0.1:${process.env.E2E_LIVE_RTMP_PORT}/live`);
    const keyField = page.getByLabel('Stream key', { exact: true });
    await expect(keyField).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(keyField).toHaveAttribute('type', 'text');
    const key = await keyField.inputValue();
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);

    // Someone else opens the live before it starts: it waits, and starts by itself when on air.
    const other = await browser.newContext();
    const violations = watchForCspViolations(other);
    const viewer = await other.newPage();
    await signUp(viewer.request);
    await viewer.goto(`/video/${videoId}`);
    await expect(viewer.getByTestId('live-upcoming')).toContainText('Waiting for the stream to start');

    const encoder = pushLive(`${rtmp}/${key}`);
    let encoderLog = '';
    encoder.stderr?.on('data', (d: Buffer) => (encoderLog += d.toString()));
    try {
      // On air: the Go live page shows it, with the stream's health and its preview.
      await expect(page.getByRole('main').getByText('Live', { exact: true }).first()).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('last-data')).toHaveText(/last data \d+ s ago/, { timeout: 15_000 });
      await expect(page.getByText('640×360')).toBeVisible({ timeout: 15_000 });

      // The owner watches on the live page: LIVE on the player, and it plays.
      await page.goto(`/video/${videoId}`);
      await expect(page.getByTestId('video-title')).toHaveText('Kitchen live');
      await expect(page.getByTestId('live-badge').first()).toBeVisible({ timeout: 30_000 });
      await expectPlaying(page);
      // The controls show a lit LIVE button in place of the time.
      await page.locator('.rh-player').hover();
      await expect(page.getByRole('button', { name: 'Live: playing the newest' })).toBeVisible();

      // The other viewer, on air without reloading, chats; the owner sees the message; the audience is
      // counted, the channel watching its own live is not.
      await expect(viewer.getByTestId('live-badge').first()).toBeVisible({ timeout: 30_000 });
      await expect(viewer.getByTestId('live-upcoming')).toHaveCount(0);
      await viewer.getByRole('textbox', { name: 'Chat message' }).fill('Hello from the audience');
      await viewer.getByRole('button', { name: 'Send' }).click();
      await expect(viewer.getByTestId('chat-messages').getByText('Hello from the audience')).toBeVisible();
      await expect(page.getByTestId('chat-messages').getByText('Hello from the audience')).toBeVisible();
      await expect(page.getByTestId('live-viewers')).toHaveText(/\b1 watching/, { timeout: 20_000 });
      await expect(viewer.getByTestId('live-viewers')).toHaveText(/\b1 watching/, { timeout: 20_000 });
      await expectPlaying(viewer);

      // Back in the broadcast's window the LIVE button dims; pressing it returns to the newest.
      const player = page.locator('video').first();
      const dvrWindow = () => player.evaluate((v: HTMLVideoElement) => (v.seekable.length ? v.seekable.end(0) - v.seekable.start(0) : 0));
      await expect.poll(dvrWindow, { timeout: 60_000, intervals: [1000] }).toBeGreaterThan(24);
      await player.evaluate((v: HTMLVideoElement) => {
        v.currentTime = v.seekable.end(0) - 20;
      });
      await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.seekable.end(0) - v.currentTime)).toBeGreaterThan(15);
      // The controls show on a pointer move over the player.
      await page.mouse.move(5, 5);
      await page.locator('.rh-player').hover({ position: { x: 100, y: 100 } });
      await expect(page.getByRole('button', { name: 'Jump to live' })).toBeVisible({ timeout: 15_000 });
      await expect(page.locator('.rh-player[data-can-seek]')).toHaveCount(1);
      // The controls hide again after a moment without a pointer move (a busy machine can take that
      // long between two steps): the pointer moves over the player again before each try.
      await expect(async () => {
        await page.mouse.move(5, 5);
        await page.locator('.rh-player').hover({ position: { x: 100, y: 100 } });
        await page.getByRole('button', { name: 'Jump to live' }).click({ timeout: 2_000 });
      }).toPass({ timeout: 30_000 });
      await expect(page.getByRole('button', { name: 'Live: playing the newest' })).toBeVisible();
      // The seek to the edge takes a moment to land: the player may still be where it was.
      await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.seekable.end(0) - v.currentTime), { timeout: 10_000 }).toBeLessThan(8);

      // The owner ends it from the Go live page.
      await page.goto(`/${owner.username}/studio/live?live=${videoId}`);
      await page.getByRole('button', { name: 'End live' }).click();
      const confirm = page.getByRole('dialog', { name: 'End the live?' });
      await confirm.getByRole('button', { name: 'End live' }).click();
      await expect(page.getByRole('button', { name: 'Live ended' })).toBeDisabled({ timeout: 20_000 });

      // The viewer's chat turns read-only; the replay is processed and then plays at the same address.
      await expect(viewer.getByText('The live has ended; the chat is read-only')).toBeVisible({ timeout: 20_000 });
      await expect
        .poll(async () => (await (await page.request.get(`/api/v1/videos/${videoId}`)).json()).data.status, { timeout: 120_000, intervals: [1000] })
        .toBe('ready');
      await page.goto(`/video/${videoId}`);
      await expect(page.getByTestId('live-badge')).toHaveCount(0);
      await expect(page.getByText('The live has ended; the chat is read-only')).toBeVisible();
      await expect(page.getByTestId('chat-messages').getByText('Hello from the audience')).toBeVisible();
      // An ordinary video now: it waits for the viewer to press play.
      await page.locator('.rh-player').hover();
      await page.getByRole('button', { name: 'Play', exact: true }).first().click();
      await expectPlaying(page);
    } finally {
      encoder.kill('SIGKILL');
      await other.close();
      if (encoderLog) await test.info().attach('encoder log', { body: encoderLog, contentType: 'text/plain' });
    }
    expect(violations, 'Content-Security-Policy violations').toEqual([]);
  });
});
