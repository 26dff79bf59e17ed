import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullPathApp } from '../../test/support/full-path.js';
import { seedVideo } from '../../test/support/seed.js';
import { createTestApp, type SignedIn, type TestApp } from '../../test/support/test-app.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const API = '/api/v1';

/**
 * Scaled mode: two API processes (two apps over one database and one Redis). A public answer made
 * for a signed-in viewer on one is kept for everyone on both, and each viewer's fields stay theirs.
 */
describe('shared answers through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let full: Awaited<ReturnType<typeof fullPathApp>>;
  let owner: SignedIn;
  let fan: SignedIn;

  beforeAll(async () => {
    a = await createTestApp({ env: { REDIS_URL } });
    const db = a.ctx.config.database;
    b = await createTestApp({ env: { REDIS_URL, DATA_DIR: a.dataDir, ...(db.kind === 'postgres' ? { DATABASE_URL: db.url } : {}) } });
    for (const app of [a, b]) await until(async () => (await app.ctx.answers.lookup('warm-up')).generation !== null);
    full = await fullPathApp(a);
    [owner, fan] = [await a.signUp(), await a.signUp()];
  }, 60_000);
  afterAll(async () => {
    await full?.close();
    await b?.close();
    await a?.close();
  });

  it("keeps the public part made for a viewer on one process for everyone on the other, with each viewer's own fields", async () => {
    const video = await seedVideo(a.ctx, owner.id);
    const url = `${API}/videos/${video.id}`;
    await a.call({ method: 'POST', url: `${API}/likes/toggle/video/${video.id}`, as: fan });
    const made = await a.call({ method: 'GET', url, as: fan });
    expect(made.headers['x-cache']).toBe('miss');
    expect(made.data.isLiked).toBe(true);
    const signedOut = await b.call({ method: 'GET', url });
    expect(signedOut.headers['x-cache']).toBe('hit');
    expect(signedOut.data.isLiked).toBe(false);
    for (const viewer of [fan, owner]) {
      const shared = await b.call({ method: 'GET', url, as: viewer });
      expect(shared.headers['x-cache']).toBe('shared');
      expect(JSON.parse(shared.body)).toEqual((await full.get(url, viewer)).json);
    }
    // A like on the other process drops the public part everywhere and shows at once.
    await b.call({ method: 'POST', url: `${API}/likes/toggle/video/${video.id}`, as: fan });
    const after = await a.call({ method: 'GET', url, as: fan });
    expect([after.data.isLiked, after.data.likesCount]).toEqual([false, 0]);
    expect(JSON.parse(after.body)).toEqual((await full.get(url, fan)).json);
  });
});

async function until(check: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
