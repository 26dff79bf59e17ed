import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, multipart, type TestApp } from '../test/support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('housekeeping', () => {
  it('forgets view records once their hour is over, without touching view counts', async () => {
    const u = await t.signUp();
    const video = await t.call({
      method: 'POST',
      url: '/api/v1/videos/',
      as: u,
      payload: await multipart({ title: 'T', description: 'D' }, { videoFile: 'clip.mp4', thumbnail: 'image.png' }),
    });
    const id = video.data._id;
    await t.call({ method: 'PATCH', url: `/api/v1/videos/increment-views/${id}` });
    expect((await t.services.housekeeping.run()).viewEvents).toBe(0);
    expect((await t.services.housekeeping.run(Date.now() + 2 * 3600_000)).viewEvents).toBe(1);
    expect(await t.ctx.db.selectFrom('view_events').selectAll().execute()).toEqual([]);
    expect((await t.call({ method: 'GET', url: `/api/v1/videos/${id}` })).data.views).toBe(1);
  });
});
