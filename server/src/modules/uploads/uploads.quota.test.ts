import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureFile } from '../../../test/support/fixtures.js';
import { createTestApp, multipart, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

const API = '/api/v1';
const FIELDS = { title: 'Dinosaur walk', description: 'A short walk with a dinosaur' };

describe('GET /uploads/quota and quotas on POST /videos/', () => {
  let t: TestApp;
  let owner: SignedIn;

  beforeAll(async () => {
    t = await createTestApp({
      env: { DEFAULT_QUOTA_BYTES: '5000000', DEFAULT_DAILY_QUOTA_BYTES: '-1', MAX_VIDEO_BYTES: '200000000', UPLOAD_EXPIRY_HOURS: '12' },
    });
    owner = await t.signUp();
  });
  afterAll(() => t.close());

  const quota = (as?: SignedIn) => t.call({ method: 'GET', url: `${API}/uploads/quota`, as });

  it('needs a signed-in user', async () => {
    const res = await quota();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ statusCode: 401, success: false, data: null, message: 'Unauthorized request' });
  });

  it("answers the site's defaults, the caller's own values when set, and what is used", async () => {
    const res = await quota(owner);
    expect(res.statusCode).toBe(200);
    expect(res.message).toBe('Upload quota fetched');
    expect(res.data).toEqual({ quotaBytes: 5000000, dailyQuotaBytes: -1, usedBytes: 0, usedDailyBytes: 0, maxUploadBytes: 200000000, uploadExpiryHours: 12 });

    const clip = await fs.readFile(await fixtureFile('clip.mp4'));
    const up = await t.call({
      method: 'POST',
      url: `${API}/videos/`,
      as: owner,
      payload: await multipart(FIELDS, { videoFile: 'clip.mp4', thumbnail: 'image.png' }),
    });
    expect(up.statusCode).toBe(201);
    expect((await quota(owner)).data).toMatchObject({ usedBytes: clip.length, usedDailyBytes: clip.length });

    await t.ctx.db.updateTable('users').set({ quota_bytes: -1, daily_quota_bytes: 123456 }).where('id', '=', owner.id).execute();
    expect((await quota(owner)).data).toMatchObject({ quotaBytes: -1, dailyQuotaBytes: 123456 });
    await t.ctx.db.updateTable('users').set({ quota_bytes: null, daily_quota_bytes: null }).where('id', '=', owner.id).execute();
  });

  it('refuses POST /videos/ past the quota with 413, leaving nothing behind', async () => {
    const user = await t.signUp();
    await t.ctx.db.updateTable('users').set({ quota_bytes: 1000 }).where('id', '=', user.id).execute();
    const res = await t.call({
      method: 'POST',
      url: `${API}/videos/`,
      as: user,
      payload: await multipart(FIELDS, { videoFile: 'clip.mp4', thumbnail: 'image.png' }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ success: false, data: null });
    expect(res.message).toMatch(/^This upload needs \d+ bytes but only 1000 bytes of your 1000-byte storage quota are left$/);
    expect(await t.ctx.db.selectFrom('videos').select('id').where('owner_id', '=', user.id).execute()).toEqual([]);
    expect(await fs.readdir(t.ctx.tmpDir).catch(() => [])).toEqual([]);
  });
});
