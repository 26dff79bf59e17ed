import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedVideo } from '../../test/support/seed.js';
import { createTestApp, multipart, type SignedIn } from '../../test/support/test-app.js';

// The early answers are served by the HTTP server itself, ahead of the app: these tests talk to a
// listening server over real connections (app.inject goes around the server).
const API = '/api/v1';

interface Served {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function listening(env: Record<string, string> = {}) {
  const t = await createTestApp({ env });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const get = async (path: string, headers: Record<string, string> = {}): Promise<Served> => {
    const res = await fetch(`${base}${API}${path}`, { headers });
    return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
  };
  /** Asks, and tells whether the early answers served it. */
  const early = async (path: string, headers: Record<string, string> = {}) => {
    const before = t.app.answeredEarly!();
    const served = await get(path, headers);
    return { ...served, early: t.app.answeredEarly!() > before };
  };
  return { t, base, get, early };
}

/** A server of its own with these settings and a video to ask for, closed afterwards. */
async function withVideo(env: Record<string, string>, run: (s: Awaited<ReturnType<typeof listening>>, videoId: string) => Promise<void>) {
  const s = await listening(env);
  try {
    const owner = await s.t.signUp();
    const video = await seedVideo(s.t.ctx, owner.id);
    await run(s, video.id);
  } finally {
    await s.t.close();
  }
}

/** Headers that differ from one answer to the next whatever serves it. */
const PER_REQUEST = new Set(['x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'date', 'x-cache', 'keep-alive']);
const lasting = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_REQUEST.has(name)));

describe('answers served ahead of the app', () => {
  let s: Awaited<ReturnType<typeof listening>>;
  let owner: SignedIn;
  beforeAll(async () => {
    s = await listening();
    owner = await s.t.signUp();
  }, 60_000);
  afterAll(() => s.t.close());

  it('serve a URL the app answered into the cache, with the same body and headers, and count as the app does', async () => {
    const video = await seedVideo(s.t.ctx, owner.id, { title: 'Served early' });
    const made = await s.early(`/videos/${video.id}`);
    expect(made.early).toBe(false);
    expect(made.headers['x-cache']).toBe('miss');

    const served = await s.early(`/videos/${video.id}`, { 'x-request-id': 'asked-early' });
    expect(served.early).toBe(true);
    expect(served.status).toBe(200);
    expect(served.body).toBe(made.body);
    expect(lasting(served.headers)).toEqual(lasting(made.headers));
    expect(served.headers['x-cache']).toBe('hit');
    expect(served.headers['x-request-id']).toBe('asked-early');
    expect(served.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    // The same count as the app's: one fewer left than after the answer before it.
    expect(Number(served.headers['x-ratelimit-remaining'])).toBe(Number(made.headers['x-ratelimit-remaining']) - 1);

    const invalidId = await s.early(`/videos/${video.id}`, { 'x-request-id': 'not valid!' });
    expect(invalidId.early).toBe(true);
    expect(invalidId.headers['x-request-id']).toMatch(/^[\w-]{16}$/);
  });

  it("stop at a change: the next answer is the app's, made afresh", async () => {
    const video = await seedVideo(s.t.ctx, owner.id, { title: 'Before the edit' });
    await s.get(`/videos/${video.id}`);
    expect((await s.early(`/videos/${video.id}`)).early).toBe(true);
    const edit = await s.t.call({ method: 'PATCH', url: `${API}/videos/${video.id}`, as: owner, payload: await multipart({ title: 'After the edit' }) });
    expect(edit.statusCode).toBe(200);
    const after = await s.early(`/videos/${video.id}`);
    expect(after.early).toBe(false);
    expect(after.headers['x-cache']).toBe('miss');
    expect(JSON.parse(after.body).data.title).toBe('After the edit');
  });

  it('leave to the app whoever could be someone, a cross-origin caller, a HEAD and a URL not seen', async () => {
    const video = await seedVideo(s.t.ctx, owner.id);
    await s.get(`/videos/${video.id}`);
    expect((await s.early(`/videos/${video.id}`)).early).toBe(true);

    const signedIn = await s.early(`/videos/${video.id}`, { authorization: `Bearer ${owner.accessToken}` });
    expect(signedIn.early).toBe(false);
    // The app's: the kept public answer with the viewer's own fields put in.
    expect(signedIn.headers['x-cache']).toBe('shared');
    expect(JSON.parse(signedIn.body).data.watchPosition).toBeNull();
    for (const headers of [
      { cookie: `accessToken=${owner.accessToken}` },
      { cookie: 'refreshToken=x' },
      { authorization: 'Bearer nonsense' },
      { origin: 'https://elsewhere.example' },
    ]) {
      expect((await s.early(`/videos/${video.id}`, headers)).early, JSON.stringify(headers)).toBe(false);
    }
    // Another spelling of the same query is the app's to read first; it then remembers it too.
    expect((await s.early(`/videos/${video.id}?unknown=1`)).early).toBe(false);
    expect((await s.early(`/videos/${video.id}?unknown=1`)).early).toBe(true);
    const before = s.t.app.answeredEarly!();
    const head = await fetch(`${s.base}${API}/videos/${video.id}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(s.t.app.answeredEarly!()).toBe(before);
  });

  it("never serve what the app would not: a missing video stays the app's 404", async () => {
    const missing = '0123456789abcdef01234567';
    for (let i = 0; i < 3; i++) {
      const answer = await s.early(`/videos/${missing}`);
      expect(answer.status).toBe(404);
      expect(answer.early).toBe(false);
    }
  });

  it('keep the connection settings the app gives its own server', () => {
    expect(s.t.app.server.keepAliveTimeout).toBe(72_000);
    expect(s.t.app.server.timeout).toBe(s.t.ctx.config.idleTimeoutMs);
  });
});

describe('the general rate limit', () => {
  it("counts early answers with the app's requests, and the one over it gets the app's 429", async () => {
    await withVideo({ RATE_LIMIT_GENERAL_PER_MINUTE: '6' }, async (s, videoId) => {
      const answers = [];
      for (let i = 0; i < 7; i++) answers.push(await s.early(`/videos/${videoId}`));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 429]);
      expect(answers.map((a) => a.early)).toEqual([false, true, true, true, true, true, false]);
      expect(answers.map((a) => a.headers['x-ratelimit-remaining'])).toEqual(['5', '4', '3', '2', '1', '0', '0']);
      expect(JSON.parse(answers[6]!.body)).toMatchObject({ statusCode: 429, success: false });
      expect(answers[6]!.headers['retry-after']).toBeDefined();
    });
  });
});

describe('behind a trusted proxy', () => {
  it('keep each forwarded host and scheme apart, and carry HSTS on https', async () => {
    await withVideo({ TRUST_PROXY: 'true' }, async (s, videoId) => {
      const https = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'videos.example' };
      await s.get(`/videos/${videoId}`, https);
      const served = await s.early(`/videos/${videoId}`, https);
      expect(served.early).toBe(true);
      expect(served.headers['strict-transport-security']).toContain('max-age=');
      // Another host, or plain http, has not been answered yet: the app's own first answer.
      expect((await s.early(`/videos/${videoId}`, { ...https, 'x-forwarded-host': 'other.example' })).early).toBe(false);
      const plain = await s.early(`/videos/${videoId}`, { 'x-forwarded-host': 'videos.example' });
      expect(plain.early).toBe(false);
      expect(plain.headers['strict-transport-security']).toBeUndefined();
      // Each client behind the proxy has its own count.
      const first = await s.early(`/videos/${videoId}`, { ...https, 'x-forwarded-for': '203.0.113.7' });
      const second = await s.early(`/videos/${videoId}`, { ...https, 'x-forwarded-for': '203.0.113.7' });
      const other = await s.early(`/videos/${videoId}`, { ...https, 'x-forwarded-for': '203.0.113.8' });
      expect([first.early, second.early, other.early]).toEqual([true, true, true]);
      expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
      expect(other.headers['x-ratelimit-remaining']).toBe(first.headers['x-ratelimit-remaining']);
    });
  });
});

describe('with the answer cache off', () => {
  it('nothing is answered ahead of the app', async () => {
    await withVideo({ ANSWER_CACHE: 'false' }, async (s, videoId) => {
      for (let i = 0; i < 3; i++) expect((await s.get(`/videos/${videoId}`)).status).toBe(200);
      expect(s.t.app.answeredEarly).toBeUndefined();
    });
  });
});
