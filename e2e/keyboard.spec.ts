import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { FIXTURES, FROM_SITE, newUser } from './helpers';

// Someone who uses only a keyboard: from signing up to signing out, every step is a key press (Tab,
// Enter, Space, arrows, typing), never a mouse or touch event, and whatever has focus is visibly
// marked and not hidden under the top bar.

const VTT = 'WEBVTT\n\n00:00.000 --> 00:10.000\nSpoken words on the test pattern\n';

/** Counts every pointer, mouse or touch event the page sees, from its first script on. */
async function countPointerEvents(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen = { count: 0 };
    (window as unknown as { pointerEventsSeen: typeof seen }).pointerEventsSeen = seen;
    for (const type of ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'touchstart', 'wheel']) {
      window.addEventListener(type, () => seen.count++, { capture: true });
    }
  });
}

/** Presses Tab (Shift+Tab with `back`) until `target` or something inside it has focus, then checks that focus shows. */
async function tabTo(page: Page, target: Locator, { back = false, max = 60 } = {}): Promise<void> {
  await expect(target).toBeVisible();
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement))) {
      await expectFocusShown(page);
      return;
    }
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${target.toString()} was not reached with ${max} presses of Tab`);
}

/** The focused element has a visible indicator (outline, ring or a field's border) and the top bar does not cover it (WCAG 2.4.7, 2.4.11). */
async function expectFocusShown(page: Page): Promise<void> {
  const verdict = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'nothing has focus';
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const ring = style.boxShadow !== 'none';
    const field = ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) && parseFloat(style.borderBottomWidth) > 0;
    if (!outline && !ring && !field) return `no focus indicator on ${el.outerHTML.slice(0, 120)}`;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) return null;
    const x = Math.min(Math.max(box.left + box.width / 2, 0), innerWidth - 1);
    const y = Math.min(Math.max(box.top + Math.min(box.height / 2, 10), 0), innerHeight - 1);
    const top = document.elementFromPoint(x, y);
    if (top && !el.contains(top) && !top.contains(el) && top.closest('header')) return `the top bar covers ${el.outerHTML.slice(0, 120)}`;
    return null;
  });
  expect(verdict).toBeNull();
}

async function type(page: Page, field: Locator, text: string): Promise<void> {
  await tabTo(page, field);
  await page.keyboard.type(text);
}

test('a keyboard alone signs up, uploads, plays, changes quality and captions, likes, comments, saves to a playlist and signs out', async ({ page }) => {
  test.setTimeout(240_000);
  await countPointerEvents(page);
  const user = newUser('kb');

  // The first Tab on a page reaches the skip link, which shows itself.
  await page.goto('/');
  await expect(page.getByRole('main')).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await expectFocusShown(page);

  // Sign up.
  await page.goto('/signup');
  await type(page, page.getByLabel('Full name'), user.fullName);
  await type(page, page.getByLabel('Email'), user.email);
  await type(page, page.getByLabel('Username'), user.username);
  await type(page, page.getByLabel('Password', { exact: true }), user.password);
  await type(page, page.getByLabel('Confirm password'), user.password);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();

  // Upload: the file input opens the file chooser from the keyboard.
  await page.goto(`/${user.username}/add-video`);
  await tabTo(page, page.getByLabel('Video file (mp4)'));
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Space');
  await (await chooser).setFiles(FIXTURES.video);
  await expect(page.getByLabel('Title')).toHaveValue('clip 5s');
  await tabTo(page, page.getByLabel('Title'));
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Typed, not clicked');
  await type(page, page.getByLabel('Description'), 'Uploaded with the keyboard alone');
  await tabTo(page, page.getByLabel('Thumbnail'));
  const thumbnailChooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Space');
  await (await thumbnailChooser).setFiles(FIXTURES.thumbnail);
  await tabTo(page, page.getByRole('button', { name: 'Upload', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/video\//, { timeout: 60_000 });
  const videoId = page.url().split('/video/')[1]!.split(/[?#]/)[0]!;
  // Quality needs the ladder; captions are added through the API (their panel is covered elsewhere).
  await expect
    .poll(async () => ((await (await page.request.get(`/api/v1/videos/${videoId}`)).json()) as { data: { hls: unknown } }).data.hls, { timeout: 120_000 })
    .not.toBeNull();
  const caption = await page.request.post(`/api/v1/videos/${videoId}/captions`, {
    headers: FROM_SITE,
    multipart: { language: 'en', label: 'English', file: { name: 'en.vtt', mimeType: 'text/vtt', buffer: Buffer.from(VTT) } },
  });
  expect(caption.ok()).toBe(true);
  expect(
    (await page.request.post('/api/v1/playlist/', { headers: FROM_SITE, data: { name: 'Keyboard picks', description: 'Saved without a mouse' } })).ok(),
  ).toBe(true);
  await page.reload();

  // Play from the player's button, then seek with the seek bar's arrow keys (no dragging).
  const video = page.locator('.rh-player video');
  await video.evaluate((v: HTMLVideoElement) => (v.muted = true));
  await tabTo(page, page.getByRole('button', { name: 'Play' }).first());
  await page.keyboard.press('Enter');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 }).toBeGreaterThan(0.2);
  // The same button, still focused, pauses.
  await page.keyboard.press('Enter');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  await tabTo(page, page.getByRole('slider', { name: 'Seek' }));
  // Home first: on a loaded machine the short clip may have played to its end before the pause.
  await page.keyboard.press('Home');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeLessThan(0.5);
  const before = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(before + 0.5);

  // Quality: the settings menu, moved through with arrows.
  await tabTo(page, page.getByRole('button', { name: 'Settings', exact: true }), { back: true });
  await page.keyboard.press('Enter');
  const quality = page.getByRole('menuitem', { name: /^Quality/ });
  await expect(quality).toBeVisible();
  for (let i = 0; i < 8 && !(await quality.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const lowest = page.getByRole('menuitemradio', { name: /240p/ });
  for (let i = 0; i < 8 && !(await lowest.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(lowest).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');

  // Captions: the CC button turns the English track on.
  const cc = page.getByRole('button', { name: 'Captions', exact: true }).first();
  await tabTo(page, cc, { back: true });
  await page.keyboard.press('Enter');
  await expect(cc).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.rh-player .vds-captions')).toContainText('Spoken words on the test pattern');

  // Off again, so that only the preference below can turn them on after the reload.
  await page.keyboard.press('Enter');
  await expect(cc).toHaveAttribute('aria-pressed', 'false');

  // Viewing preferences, from the player's Accessibility menu: single-key shortcuts off, captions on by default.
  await tabTo(page, page.getByRole('button', { name: 'Settings', exact: true }), { back: true });
  await page.keyboard.press('Enter');
  const accessibility = page.getByRole('menuitem', { name: /^Accessibility/ });
  for (let i = 0; i < 8 && !(await accessibility.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  for (const name of ['Keyboard shortcuts', 'Captions on by default']) {
    const item = page.getByRole('menuitemcheckbox', { name });
    for (let i = 0; i < 12 && !(await item.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
  }
  await expect(page.getByRole('menuitemcheckbox', { name: 'Keyboard shortcuts' })).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByRole('menuitemcheckbox', { name: 'Captions on by default' })).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.reload();
  // k no longer plays (the page has focus, not the player); played from its button, captions come on by themselves.
  await expect(page.getByRole('button', { name: 'Play' }).first()).toBeVisible();
  await page.keyboard.press('k');
  await page.waitForTimeout(500);
  expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  await tabTo(page, page.getByRole('button', { name: 'Play' }).first());
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Captions', exact: true }).first()).toHaveAttribute('aria-pressed', 'true');

  // Like, comment, save to a playlist.
  await tabTo(page, page.getByRole('button', { name: 'Like' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Like' })).toHaveAttribute('aria-pressed', 'true');
  await type(page, page.getByRole('textbox', { name: 'Add a comment' }), 'Typed from the keyboard');
  await tabTo(page, page.getByRole('button', { name: 'Comment', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Typed from the keyboard')).toBeVisible();
  // A live region tells screen readers the comment is up.
  await expect(page.getByRole('status').filter({ hasText: 'Your comment was posted.' })).toHaveCount(1);

  const save = page.getByRole('button', { name: 'Save', exact: true });
  await tabTo(page, save, { back: true });
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Save to playlist' });
  await expect(dialog).toBeVisible();
  // Focus is kept inside the dialog: Tab goes round it.
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  const picks = dialog.getByRole('checkbox', { name: 'Keyboard picks' });
  await tabTo(page, picks);
  await page.keyboard.press('Space');
  await expect(picks).toBeChecked();
  await expect(page.getByText('Video added to playlist')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(save).toBeFocused();

  // Sign out.
  await tabTo(page, page.getByRole('button', { name: 'Logout' }), { back: true, max: 120 });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('link', { name: 'Login' }).first()).toBeVisible();

  expect(await page.evaluate(() => (window as unknown as { pointerEventsSeen: { count: number } }).pointerEventsSeen.count)).toBe(0);
});
