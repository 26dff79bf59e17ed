import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_ID, seedVideo } from '../../../test/support/seed.js';
import { staffCallers } from '../../../test/support/staff.js';
import { freePort } from '../../../test/support/rtmp-push.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

const API = '/api/v1';
const TYPE = 'type=video%2Fwebm%3Bcodecs%3Dvp8%2Copus';

// A plain request to the WebSocket's address is answered with what the upgrade would meet: a
// refusal's status, or 426 when all is well. The WebSocket itself is tried in live-publish.ingest.test.ts.
describe('GET /live/{videoId}/publish', () => {
  let t: TestApp;
  let owner: SignedIn;
  let other: SignedIn;
  let staff: Awaited<ReturnType<typeof staffCallers>>;

  beforeAll(async () => {
    t = await createTestApp({ env: { LIVE_INGEST: 'in-process', LIVE_RTMP_PORT: String(await freePort()) } });
    owner = await t.signUp();
    other = await t.signUp();
    staff = await staffCallers(t);
  });
  afterAll(() => t.close());

  const made = async (payload: Record<string, unknown> = {}) => {
    const res = await t.call({ method: 'POST', url: `${API}/live`, payload: { title: 'Browser show', description: 'x', ...payload }, as: owner });
    expect(res.statusCode).toBe(201);
    expect(res.data.ingest.browser).toBe(true);
    return res.data.video._id as string;
  };
  const publish = (id: string, as?: SignedIn, query = TYPE, headers: Record<string, string> = {}) =>
    t.call({ method: 'GET', url: `${API}/live/${id}/publish?${query}`, as, headers });

  it('the owner is told to open it as a WebSocket; signed out, other users, moderators and admins are refused', async () => {
    const id = await made();
    const mine = await publish(id, owner);
    expect(mine.statusCode).toBe(426);
    expect(mine.json()).toMatchObject({ statusCode: 426, success: false, message: 'Open this address as a WebSocket to publish' });

    const out = await publish(id);
    expect(out.statusCode).toBe(401);
    expect(out.message).toBe('Sign in to publish a live');
    // Only its owner publishes: an admin can end a live, not speak in it.
    for (const who of [other, staff.user, staff.moderator, staff.admin]) {
      const res = await publish(id, who);
      expect(res.statusCode).toBe(403);
      expect(res.message).toBe('Only the owner of this live can manage it');
    }
  });

  it("someone else's private live, a missing id and a video that is not a live are missing", async () => {
    const id = await made({ visibility: 'private' });
    expect((await publish(id, other)).statusCode).toBe(404);
    expect((await publish(MISSING_ID, owner)).statusCode).toBe(404);
    const vod = await seedVideo(t.ctx, owner.id);
    expect((await publish(vod.id, owner)).statusCode).toBe(404);
  });

  it('refuses bad input', async () => {
    const id = await made();
    const cases: [string, string, RegExp][] = [
      [id, '', /type must be the MIME type/],
      [id, 'type=image%2Fpng', /type must be a video\/webm or video\/mp4 MIME type/],
      [id, `type=video%2Fwebm${'x'.repeat(100)}`, /type must be at most 100/],
      ['not!an!id', TYPE, /./],
    ];
    for (const [videoId, query, message] of cases) {
      const res = await publish(videoId, owner, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.body).toMatch(message);
    }
  });

  it('a page of another site is refused; a page of this site, or a Bearer token, is not', async () => {
    const id = await made();
    const cookie = { cookie: `accessToken=${owner.accessToken}` };
    const foreign = await t.call({ method: 'GET', url: `${API}/live/${id}/publish?${TYPE}`, headers: { ...cookie, origin: 'https://elsewhere.example' } });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.message).toMatch(/Cross-site request refused/);
    const noOrigin = await t.call({ method: 'GET', url: `${API}/live/${id}/publish?${TYPE}`, headers: cookie });
    expect(noOrigin.statusCode).toBe(403);
    const own = await t.call({ method: 'GET', url: `${API}/live/${id}/publish?${TYPE}`, headers: { ...cookie, origin: 'http://localhost:80' } });
    expect(own.statusCode).toBe(426);
  });

  it('an ended live takes nothing more', async () => {
    const id = await made();
    expect((await t.call({ method: 'POST', url: `${API}/live/${id}/end`, as: owner })).statusCode).toBe(200);
    const res = await publish(id, owner);
    expect(res.statusCode).toBe(409);
    expect(res.message).toBe('This live has ended');
  });
});

describe('GET /live/{videoId}/publish with the ingest off', () => {
  it('is refused with 409, and a live says the browser cannot publish', async () => {
    const t = await createTestApp();
    try {
      const owner = await t.signUp();
      const res = await t.call({ method: 'POST', url: `${API}/live`, payload: { title: 'x', description: 'x' }, as: owner });
      expect(res.data.ingest.browser).toBe(false);
      const refused = await t.call({ method: 'GET', url: `${API}/live/${res.data.video._id}/publish?${TYPE}`, as: owner });
      expect(refused.statusCode).toBe(409);
      expect(refused.message).toBe('Live ingest is off on this site');
    } finally {
      await t.close();
    }
  });
});
