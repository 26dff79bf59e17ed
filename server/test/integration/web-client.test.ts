import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let dist: string;
beforeAll(async () => {
  dist = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-dist-'));
  await fs.mkdir(path.join(dist, 'assets'));
  await fs.writeFile(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  await fs.writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  t = await createTestApp({ env: { WEB_DIST: dist } });
});
afterAll(async () => {
  await t?.close();
  await fs.rm(dist, { recursive: true, force: true });
});

describe('the built web client', () => {
  it('is served at / and for every unknown non-API path', async () => {
    for (const url of ['/', '/video/abc', '/channel/someone/videos', '/some/unknown/path']) {
      const res = await t.call({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('serves hashed assets as immutable, including files built after start-up', async () => {
    const res = await t.call({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
    await fs.writeFile(path.join(dist, 'assets', 'later-def456.js'), 'console.log(2)');
    expect((await t.call({ method: 'GET', url: '/assets/later-def456.js' })).body).toBe('console.log(2)');
  });

  it('keeps API and media misses as JSON 404s, and serves the default images', async () => {
    const api = await t.call({ method: 'GET', url: '/api/v1/not-a-call' });
    expect(api.statusCode).toBe(404);
    expect(api.json().success).toBe(false);
    expect((await t.call({ method: 'GET', url: '/media/videos/none/play.mp4' })).statusCode).toBe(404);
    const avatar = await t.call({ method: 'GET', url: '/static/default-avatar.svg' });
    expect(avatar.statusCode).toBe(200);
    expect(avatar.headers['content-type']).toContain('image/svg+xml');
  });

  it('refuses to climb out of the client directory', async () => {
    const res = await t.call({ method: 'GET', url: '/..%2F..%2Fetc%2Fpasswd' });
    expect(res.body).not.toContain('root:');
  });
});
