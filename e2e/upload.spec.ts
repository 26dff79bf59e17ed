import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { FIXTURES, signUpViaApi, toast, uploadViaApi, waitReady, slowUploads } from './helpers';

const NEW_THUMB = path.join(FIXTURES.dir, 'thumb-new.png');
const NOT_A_VIDEO = path.join(FIXTURES.dir, 'clip-1s.webm');

test.beforeAll(() => {
  const ff = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
  if (!fs.existsSync(NEW_THUMB)) {
    ff(['-f', 'lavfi', '-i', 'smptehdbars=s=640x360', '-frames:v', '1', NEW_THUMB]);
  }
  if (!fs.existsSync(NOT_A_VIDEO)) {
    ff(['-f', 'lavfi', '-i', 'testsrc2=s=160x90:r=10:d=1', '-c:v', 'libvpx-vp9', '-b:v', '100k', NOT_A_VIDEO]);
  }
});

/** Drops a file on an element the way a browser does: dragenter, dragover, then drop with a DataTransfer. */
async function dropFile(target: Locator, file: string, mimeType: string) {
  const bytes = fs.readFileSync(file).toString('base64');
  const transfer = await target.page().evaluateHandle(
    ({ bytes, name, mimeType }) => {
      const data = Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([data], name, { type: mimeType }));
      return dt;
    },
    { bytes, name: path.basename(file), mimeType },
  );
  for (const type of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(type, { dataTransfer: transfer });
}

test.describe('upload page', () => {
  test('the drop zone refuses a non-mp4, reads an mp4’s duration and resolution, and prefills the title', async ({ page }) => {
    const user = await signUpViaApi(page.request);
    await page.goto(`/${user.username}/add-video`);
    const zone = page.getByTestId('video-drop-zone');

    await dropFile(zone, NOT_A_VIDEO, 'video/webm');
    await expect(page.getByRole('alert').filter({ hasText: 'Video must be an mp4 file' })).toBeVisible();
    await expect(page.getByTestId('video-file-name')).toHaveCount(0);
    await expect(page.getByLabel('Title')).toHaveValue('');

    // An mp4 dropped on the zone: its facts come from the browser's own reading of the file.
    await dropFile(zone, FIXTURES.smallVideo, 'video/mp4');
    await expect(page.getByRole('alert').filter({ hasText: 'Video must be an mp4 file' })).toHaveCount(0);
    await expect(page.getByTestId('video-file-name')).toHaveText('clip-1s.mp4');
    await expect(page.getByTestId('video-duration')).toHaveText('00:01');
    await expect(page.getByTestId('video-resolution')).toHaveText('192×108 · 108p');
    await expect(page.getByLabel('Title')).toHaveValue('clip 1s');

    // Choosing another file with the dialog replaces it, and the title it had filled in follows.
    await page.getByLabel('Video file (mp4)').setInputFiles(FIXTURES.video);
    await expect(page.getByTestId('video-file-name')).toHaveText('clip-5s.mp4');
    await expect(page.getByTestId('video-duration')).toHaveText('00:05');
    await expect(page.getByTestId('video-resolution')).toHaveText('640×360 · 360p');
    await expect(page.getByTestId('video-file-size')).toHaveText(/^\d+(\.\d)? (kB|MB)$/);
    await expect(page.getByLabel('Title')).toHaveValue('clip 5s');

    // A title typed by hand is never overwritten.
    await page.getByLabel('Title').fill('My own title');
    await page.getByLabel('Video file (mp4)').setInputFiles(FIXTURES.smallVideo);
    await expect(page.getByTestId('video-duration')).toHaveText('00:01');
    await expect(page.getByLabel('Title')).toHaveValue('My own title');

    // The thumbnail shows as a preview from the chosen file itself.
    await page.getByLabel('Thumbnail').setInputFiles(FIXTURES.thumbnail);
    const preview = page.getByTestId('thumbnail-preview');
    await expect(preview).toHaveAttribute('src', /^blob:/);
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
    await page.getByLabel('Thumbnail').setInputFiles(NOT_A_VIDEO);
    await expect(page.getByRole('alert').filter({ hasText: 'Thumbnail must be a png, jpeg, jpg or webp image' })).toBeVisible();
    await expect(preview).toBeVisible();
  });

  test('Cancel aborts an upload in flight and nothing is created', async ({ page }) => {
    const user = await signUpViaApi(page.request);
    await page.goto(`/${user.username}/add-video`);
    await page.getByLabel('Description').fill('An upload slowed down to be cancelled.');
    await page.getByLabel('Video file (mp4)').setInputFiles(FIXTURES.video);
    await page.getByLabel('Thumbnail').setInputFiles(FIXTURES.thumbnail);
    // Slow the upload link so the cancel lands mid-way (the file is a few hundred KB).
    const restoreUploads = await slowUploads(page, 20 * 1024);
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect(page.getByRole('button', { name: 'Uploading…' })).toBeDisabled();
    await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByText('Upload cancelled.')).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Upload', exact: true })).toBeEnabled();
    await expect(page).toHaveURL(new RegExp(`/${user.username}/add-video$`));
    await restoreUploads();
    // Give a late request every chance to land, then check the channel has no video.
    await page.waitForTimeout(1500);
    const list = await (await page.request.get(`/api/v1/videos/?userId=${user._id}`)).json();
    expect(list.data.videos).toHaveLength(0);
  });

  test('the owner changes a video’s thumbnail from the edit dialog', async ({ page }) => {
    await signUpViaApi(page.request);
    const { _id } = await uploadViaApi(page.request, { title: 'New face' });
    await waitReady(page.request, _id);
    const before = (await (await page.request.get(`/api/v1/videos/${_id}`)).json()).data.thumbnail.url as string;

    await page.goto(`/video/${_id}`);
    const poster = page.locator('img.vds-poster').first();
    // The player is a chunk of its own, fetched on the first video page: a loaded machine takes a while.
    await expect(poster).toHaveAttribute('src', before, { timeout: 30_000 });
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit video' });
    await dialog.getByLabel('Thumbnail').setInputFiles(NEW_THUMB);
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(toast(page, 'Video updated successfully')).toBeVisible();
    await expect(dialog).toBeHidden();

    const after = (await (await page.request.get(`/api/v1/videos/${_id}`)).json()).data.thumbnail.url as string;
    expect(after).not.toBe(before);
    await expect(poster).toHaveAttribute('src', after);
    const served = await page.request.get(after);
    expect(served.ok()).toBe(true);
    expect((await served.body()).equals(fs.readFileSync(FIXTURES.thumbnail))).toBe(false);
    // The title is left as it was: only the thumbnail was sent.
    await expect(page.getByTestId('video-title')).toHaveText('New face');
  });
});
