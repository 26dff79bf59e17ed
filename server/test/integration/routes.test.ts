import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, queryString, routeFixtures } from '../route-fixtures/index.js';
import { createTestApp, multipart, type TestApp, type TestResponse } from '../support/test-app.js';

/**
 * Every call of the specification's call table, with the status it answers when sent bare: signed
 * out, with no body and no query, sample ids in place of its placeholders.
 */
const BARE_STATUS: Record<string, number> = {
  'POST /users/login': 400,
  'POST /users/logout': 200,
  'POST /users/refresh-token': 401,
  'GET /users/user/current': 401,
  'POST /users/register': 415,
  'PATCH /users/change-avatar': 401,
  'PATCH /users/change-cover-image': 401,
  'PATCH /users/update-account': 400,
  'PATCH /users/change-password': 400,
  'DELETE /users/delete-account': 401,
  'PATCH /users/watch-history/{videoId}': 401,
  'GET /users/watch-history/': 401,
  'GET /users/channel/{channelName}': 404,
  'GET /videos/': 200,
  'POST /videos/': 401,
  'GET /videos/{id}': 404,
  'PATCH /videos/{id}': 401,
  'DELETE /videos/{id}': 401,
  'PATCH /videos/publish/{id}': 401,
  'PATCH /videos/increment-views/{id}': 404,
  'GET /likes/videos': 401,
  'GET /likes/count/{contentId}': 400,
  'GET /likes/{contentId}': 400,
  'POST /likes/toggle/{contentType}/{contentId}/': 401,
  'POST /subscriptions/channel/{channelId}': 401,
  'GET /subscriptions/channel/{channelId}': 404,
  'GET /subscriptions/user/subscriber-count': 401,
  'POST /playlist/': 400,
  'GET /playlist/{id}': 401,
  'PATCH /playlist/{id}': 400,
  'DELETE /playlist/{id}': 401,
  'PATCH /playlist/add/{videoId}/{playlistId}': 401,
  'PATCH /playlist/remove/{videoId}/{playlistId}': 401,
  'GET /playlist/user/{userId}': 404,
  'GET /comments/{videoId}': 404,
  'POST /comments/{videoId}': 400,
  'PATCH /comments/{commentId}': 400,
  'DELETE /comments/{commentId}': 401,
};
const SPEC_CALLS = Object.keys(BARE_STATUS);

const SAMPLE: Record<string, string> = { contentType: 'video', channelName: 'somebody' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/**
 * A routed, healthy answer: the exact status, JSON, and the envelope with nothing more. A failure
 * must come from the route itself, not from the not-found handler ("Route ... not found").
 */
function expectEnvelope(res: TestResponse, status: number) {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
  expect(res.headers['content-type']).toContain('application/json');
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['data', 'message', 'statusCode', 'success']);
  expect(body).toMatchObject({ statusCode: status, success: status < 400 });
  expect(typeof body.message).toBe('string');
  expect(body.message).not.toMatch(/^Route /);
}

describe('the call table of the specification', () => {
  it.each(SPEC_CALLS)('%s is routed', async (call) => {
    const [method, template] = call.split(' ') as [string, string];
    const url = `/api/v1${template.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLE[name] ?? 'sampleId123')}`;
    const res = await t.call({ method: method as 'GET', url });
    expectEnvelope(res, BARE_STATUS[call]!);
  });

  // The bare call is mostly refused before its handler runs; a valid one reaches the handler.
  it.each(SPEC_CALLS)('%s serves a valid call', async (call) => {
    const [method, template] = call.split(' ') as [string, string];
    const fixture = routeFixtures[`${method} /api/v1${template.replace(/\{(\w+)\}/g, ':$1')}`];
    expect(fixture, `no route fixture for ${call}`).toBeDefined();
    const v = await fixture!.valid(createWorld(t));
    const url = `/api/v1${template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(v.params?.[name] ?? ''))}`;
    const payload = v.fields || v.files ? await multipart(v.fields ?? {}, v.files ?? {}) : (v.body ?? v.json);
    const res = await t.call({
      method: method as 'GET',
      url: url + queryString(v.query),
      ...(v.headers ? { headers: v.headers } : {}),
      ...(payload !== undefined ? { payload } : {}),
      ...(v.as ? { as: v.as } : {}),
    });
    expectEnvelope(res, v.status);
  });

  it('answers an unknown API path with the 404 envelope', async () => {
    const res = await t.call({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ statusCode: 404, data: null, message: 'Route GET /api/v1/nothing-here not found', success: false });
  });

  it('serves the OpenAPI document with every call of the table', async () => {
    const res = await t.call({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const shape = (path: string) => path.replace(/\/$/, '').replace(/\{\w+\}/g, '{}');
    const documented = new Set<string>();
    for (const [path, operations] of Object.entries(res.json().paths as Record<string, object>)) {
      for (const method of Object.keys(operations)) documented.add(`${method.toUpperCase()} ${shape(path)}`);
    }
    for (const call of SPEC_CALLS) {
      const [method, template] = call.split(' ') as [string, string];
      expect(documented.has(`${method} ${shape(`/api/v1${template}`)}`), call).toBe(true);
    }
    expect((await t.call({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
  });

  it('reports health', async () => {
    const res = await t.call({ method: 'GET', url: '/api/v1/healthcheck' });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ database: true, storage: true });
  });
});
