import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, multipart, type TestApp } from '../support/test-app.js';

/**
 * Decompression bombs: a valid 30000x30000 PNG of ~110 KB, which would take 900 megapixels (2.7 GB
 * of RGB) to decode, is refused from its header with a 4xx wherever an image is accepted, and leaves
 * the account, the videos, the storage and the temporary directory exactly as they were.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const tmpFiles = async () => (await fs.readdir(t.ctx.tmpDir).catch(() => [])).filter((f) => f.startsWith('upload-'));

describe('a 30000x30000 PNG bomb', () => {
  it.each([
    ['avatar', '/api/v1/users/change-avatar'],
    ['coverImage', '/api/v1/users/change-cover-image'],
  ])('as %s is a 4xx that changes nothing', async (field, url) => {
    const u = await t.signUp();
    const before = await t.ctx.db.selectFrom('users').selectAll().where('id', '=', u.id).executeTakeFirstOrThrow();
    const stored = await t.ctx.storage.list(`users/${u.id}/`);
    const payload = await multipart({}, { [field]: 'bomb.png' });
    const started = Date.now();
    const res = await t.call({ method: 'PATCH', url, as: u, payload });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json()).toMatchObject({ success: false, message: expect.stringMatching(/too large|image/i) });
    // Refused from the header: decoding 900 megapixels would take minutes on this machine, if it fit.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await t.ctx.db.selectFrom('users').selectAll().where('id', '=', u.id).executeTakeFirstOrThrow()).toEqual(before);
    expect(await t.ctx.storage.list(`users/${u.id}/`)).toEqual(stored);
    expect(await tmpFiles()).toEqual([]);
  });

  it('as a video thumbnail is a 4xx: no video row, nothing stored', async () => {
    const u = await t.signUp();
    const res = await t.call({
      method: 'POST',
      url: '/api/v1/videos/',
      as: u,
      payload: await multipart({ title: 'Bomb', description: 'thumbnail bomb' }, { videoFile: 'clip.mp4', thumbnail: 'bomb.png' }),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(await t.ctx.db.selectFrom('videos').select('id').where('owner_id', '=', u.id).execute()).toEqual([]);
    expect(await t.ctx.storage.list('videos/')).toEqual([]);
    expect(await tmpFiles()).toEqual([]);
  });
});
