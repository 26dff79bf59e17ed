import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** Every call of the specification's call table, with sample ids in place of its placeholders. */
const SPEC_CALLS = [
  'POST /users/login',
  'POST /users/logout',
  'POST /users/refresh-token',
  'GET /users/user/current',
  'POST /users/register',
  'PATCH /users/change-avatar',
  'PATCH /users/change-cover-image',
  'PATCH /users/update-account',
  'PATCH /users/change-password',
  'DELETE /users/delete-account',
  'PATCH /users/watch-history/{videoId}',
  'GET /users/watch-history/',
  'GET /users/channel/{channelName}',
  'GET /videos/',
  'POST /videos/',
  'GET /videos/{id}',
  'PATCH /videos/{id}',
  'DELETE /videos/{id}',
  'PATCH /videos/publish/{id}',
  'PATCH /videos/increment-views/{id}',
  'GET /likes/videos',
  'GET /likes/count/{contentId}',
  'GET /likes/{contentId}',
  'POST /likes/toggle/{contentType}/{contentId}/',
  'POST /subscriptions/channel/{channelId}',
  'GET /subscriptions/channel/{channelId}',
  'GET /subscriptions/user/subscriber-count',
  'POST /playlist/',
  'GET /playlist/{id}',
  'PATCH /playlist/{id}',
  'DELETE /playlist/{id}',
  'PATCH /playlist/add/{videoId}/{playlistId}',
  'PATCH /playlist/remove/{videoId}/{playlistId}',
  'GET /playlist/user/{userId}',
  'GET /comments/{videoId}',
  'POST /comments/{videoId}',
  'PATCH /comments/{commentId}',
  'DELETE /comments/{commentId}',
] as const;

const SAMPLE: Record<string, string> = { contentType: 'video', channelName: 'somebody' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the call table of the specification', () => {
  it.each(SPEC_CALLS)('%s is routed', async (call) => {
    const [method, template] = call.split(' ') as [string, string];
    const url = `/api/v1${template.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLE[name] ?? 'sampleId123')}`;
    const res = await t.call({ method: method as 'GET', url });
    // The not-found handler answers "Route ... not found"; a routed call may still 401/404 its resource.
    expect(res.message ?? '').not.toMatch(/^Route /);
    expect(res.headers['content-type']).toContain('application/json');
  });

  it('answers an unknown API path with the 404 envelope', async () => {
    const res = await t.call({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ statusCode: 404, data: null, message: 'Route GET /api/v1/nothing-here not found', success: false });
  });

  it('serves the OpenAPI document with every call of the table', async () => {
    const res = await t.call({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const call of SPEC_CALLS) {
      const [, template] = call.split(' ') as [string, string];
      const wanted = `/api/v1${template}`.replace(/\/$/, '').replace(/\{\w+\}/g, '{}');
      expect(paths.map((p) => p.replace(/\/$/, '').replace(/\{\w+\}/g, '{}')), call).toContain(wanted);
    }
    expect((await t.call({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
  });

  it('reports health', async () => {
    const res = await t.call({ method: 'GET', url: '/api/v1/healthcheck' });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ database: true, storage: true });
  });
});
