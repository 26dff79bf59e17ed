import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures';
import { newUser, signUpViaApi, uploadViaApi, waitReady } from './helpers';

// The API is the journeys' server (playwright.config.ts lists this client's origin in its
// ALLOWED_ORIGINS and sets PUBLIC_URL); the client is built to call it and served from another port.
const API_PORT = Number(process.env.E2E_PORT ?? 7123);
const API_ORIGIN = `http://127.0.0.1:${API_PORT}`;
const CLIENT_ORIGIN = `http://127.0.0.1:${API_PORT + 1}`;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

/** A plain static host with the usual single-page fallback, as any CDN or bucket website offers. */
function serveStatic(root: string, port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = path.join(root, rel);
    if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) file = path.join(root, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

test.describe('the web client served from another origin', () => {
  let dist: string;
  let server: http.Server;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'reelhouse-e2e-client-'));
    execFileSync('npx', ['vite', 'build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: path.resolve(import.meta.dirname, '../web'),
      env: { ...process.env, VITE_API_URL: API_ORIGIN },
      stdio: 'pipe',
    });
    server = await serveStatic(dist, API_PORT + 1);
  });

  test.afterAll(async () => {
    await new Promise((r) => server?.close(r));
    fs.rmSync(dist, { recursive: true, force: true });
  });

  test('sign in, play a video, like it and comment, all against the API origin', async ({ page, request }) => {
    await signUpViaApi(request);
    const { _id } = await uploadViaApi(request, { title: 'Across origins' });
    await waitReady(request, _id);
    const viewer = newUser('xo');
    await signUpViaApi(request, viewer);

    const problems: string[] = [];
    page.on('console', (m) => {
      // A signed-out page load asks who is signed in and is told 401: expected, not a problem.
      if (m.type() === 'error' && !/status of 401/.test(m.text())) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    const misrouted: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.origin === CLIENT_ORIGIN && (u.pathname.startsWith('/api/') || u.pathname.startsWith('/media/'))) misrouted.push(r.url());
    });

    await page.goto(`${CLIENT_ORIGIN}/login`);
    await page.getByLabel('Email').fill(viewer.email);
    await page.getByLabel('Password').fill(viewer.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();

    await page.goto(`${CLIENT_ORIGIN}/video/${_id}`);
    await expect(page.getByTestId('video-title')).toHaveText('Across origins');
    const video = page.locator('video').first();
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
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0.3);
    const poster = page.locator('img').first();
    await expect.poll(() => poster.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);

    await page.getByRole('button', { name: 'Like', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Unlike', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('like-count').first()).toHaveText('1');
    await page.getByLabel('Add a comment').fill('Hello from another origin');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await expect(page.getByTestId('comment').first()).toContainText('Hello from another origin');

    // Still signed in and still liked after a reload: the cookies work across the two origins.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Unlike', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
    expect(misrouted).toEqual([]);
    expect(problems).toEqual([]);
  });
});
