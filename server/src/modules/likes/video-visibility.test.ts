import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedVideo } from '../../../test/support/seed.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { isVisibleTo } from '../videos/videos.repository.js';
import { videoVisibleTo } from './video-visibility.js';

let t: TestApp;
let owner: SignedIn;
let stranger: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  [owner, stranger] = await Promise.all([t.signUp(), t.signUp()]);
});
afterAll(() => t?.close());

it('the SQL filter agrees with isVisibleTo for every state and every kind of viewer', async () => {
  const videos = [];
  for (const status of ['processing', 'ready', 'failed'] as const) {
    for (const is_published of [0, 1]) videos.push(await seedVideo(t.ctx, owner.id, { status, is_published }));
  }
  const ids = videos.map((v) => v.id);
  for (const viewer of [owner.id, stranger.id, null]) {
    const rows = await t.ctx.db.selectFrom('videos').select('id').where('id', 'in', ids).where(videoVisibleTo(viewer)).execute();
    const expected = videos.filter((v) => isVisibleTo(v, viewer)).map((v) => v.id).sort();
    expect(rows.map((r) => r.id).sort()).toEqual(expected);
  }
  // Not vacuous: the owner sees all six, anyone else only the ready, published one.
  expect(videos.filter((v) => isVisibleTo(v, owner.id))).toHaveLength(6);
  expect(videos.filter((v) => isVisibleTo(v, null))).toHaveLength(1);
});
