import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { FIXTURES, signUpViaApi } from './helpers';

/** Over two 8 MiB pieces of the client's upload: lossless noise does not compress. */
const BIG_VIDEO = path.join(FIXTURES.dir, 'noise-3s.mp4');
const PIECE = 8 * 1024 * 1024;

test.beforeAll(() => {
  if (fs.existsSync(BIG_VIDEO)) return;
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'nullsrc=s=640x360:r=25:d=3,geq=lum=random(1)*255:cb=128:cr=128',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=3',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-qp',
    '0',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    '-movflags',
    '+faststart',
    BIG_VIDEO,
  ]);
});

test('an upload whose connection is cut mid-way resumes where it stopped after a page reload, and completes', async ({ page }) => {
  test.setTimeout(180_000);
  expect(fs.statSync(BIG_VIDEO).size).toBeGreaterThan(2 * PIECE);
  const user = await signUpViaApi(page.request);
  await page.goto(`/${user.username}/add-video`);

  // The first piece goes through; then the network fails every upload request.
  let patches = 0;
  await page.route('**/api/v1/uploads/*', (route) => {
    if (route.request().method() === 'PATCH' && ++patches > 1) return route.abort('connectionreset');
    return route.continue();
  });
  await page.getByLabel('Title').fill('Noise that survived a cut');
  await page.getByLabel('Description').fill('Uploaded in pieces; the connection failed after the first.');
  await page.getByLabel('Video file (mp4)').setInputFiles(BIG_VIDEO);
  await page.getByLabel('Thumbnail').setInputFiles(FIXTURES.thumbnail);
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByTestId('upload-state')).toContainText('Connection lost, retrying', { timeout: 30_000 });
  await expect(page.getByTestId('upload-progress')).toContainText('8.4 MB');
  // While it waits, the title can still be changed: publishing uses what is there at the end.
  await page.getByLabel('Title').fill('Edited while uploading');

  // The person gives up on this tab and reloads; then the network is back. (Back first, and the
  // old page's next retry could send the second piece before the reload ends it.)
  await page.reload();
  await page.unroute('**/api/v1/uploads/*');
  const offsets: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PATCH' && r.url().includes('/api/v1/uploads/')) offsets.push(r.headers()['upload-offset'] ?? '');
  });
  await page.getByLabel('Title').fill('Noise that survived a cut');
  await page.getByLabel('Description').fill('Uploaded in pieces; the connection failed after the first.');
  await page.getByLabel('Video file (mp4)').setInputFiles(BIG_VIDEO);
  await page.getByLabel('Thumbnail').setInputFiles(FIXTURES.thumbnail);
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByTestId('upload-resumed')).toContainText('Resumed at 8.4 MB');
  await expect(page).toHaveURL(/\/video\/[A-Za-z0-9_-]+$/, { timeout: 90_000 });
  // Nothing before the cut was sent again.
  expect(offsets[0]).toBe(String(PIECE));
  await expect(page.getByTestId('video-title')).toHaveText('Noise that survived a cut');
});
