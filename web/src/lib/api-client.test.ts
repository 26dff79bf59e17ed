import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from './api-client';

function json(status: number, data: unknown, message = 'ok') {
  return new Response(JSON.stringify({ statusCode: status, data, message, success: status < 400 }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** A fake server: the access cookie is valid only after a refresh. */
function fakeServer(opts: { refreshOk?: boolean; refreshDelayMs?: number } = {}) {
  let authorised = false;
  const calls: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push(`${init?.method ?? 'GET'} ${url}`);
    expect(init?.credentials).toBe('include');
    if (url.endsWith('/users/refresh-token')) {
      if (opts.refreshDelayMs) await new Promise((r) => setTimeout(r, opts.refreshDelayMs));
      if (opts.refreshOk === false) return json(401, null, 'Invalid refresh token');
      authorised = true;
      return json(200, null, 'refreshed');
    }
    if (!authorised) return json(401, null, 'Unauthorized');
    return json(200, { url }, 'ok');
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

describe('api client', () => {
  it('unwraps the envelope and builds the url under /api/v1 with the query', async () => {
    const fetch = vi.fn(async () => json(200, { hello: 'world' }));
    const client = createApiClient({ fetch: fetch as unknown as typeof globalThis.fetch });
    const data = await client.get('/videos/', { query: 'cats', pageNumber: 2, userId: undefined });
    expect(data).toEqual({ hello: 'world' });
    expect(fetch).toHaveBeenCalledWith('/api/v1/videos/?query=cats&pageNumber=2', expect.anything());
  });

  it('sends JSON bodies with a content type and FormData as is', async () => {
    const fetch = vi.fn(async (_u: RequestInfo | URL, _i?: RequestInit) => json(200, null));
    const client = createApiClient({ fetch: fetch as unknown as typeof globalThis.fetch });
    await client.post('/users/login', { email: 'a@b.c' });
    expect(fetch.mock.calls[0]![1]).toMatchObject({
      method: 'POST',
      body: '{"email":"a@b.c"}',
      headers: { 'Content-Type': 'application/json' },
    });
    const form = new FormData();
    await client.patch('/users/change-avatar', form);
    expect(fetch.mock.calls[1]![1]!.body).toBe(form);
    expect(fetch.mock.calls[1]![1]!.headers).toBeUndefined();
  });

  it('on a 401 refreshes once and retries once', async () => {
    const server = fakeServer();
    const client = createApiClient({ fetch: server.fetch });
    await expect(client.get('/users/user/current')).resolves.toEqual({ url: '/api/v1/users/user/current' });
    expect(server.calls).toEqual(['GET /api/v1/users/user/current', 'POST /api/v1/users/refresh-token', 'GET /api/v1/users/user/current']);
  });

  it('shares one refresh between concurrent 401s', async () => {
    const server = fakeServer({ refreshDelayMs: 20 });
    const client = createApiClient({ fetch: server.fetch });
    const results = await Promise.all([client.get('/a'), client.get('/b'), client.get('/c')]);
    expect(results).toHaveLength(3);
    expect(server.calls.filter((c) => c.includes('refresh-token'))).toHaveLength(1);
    expect(server.calls.filter((c) => c === 'GET /api/v1/a')).toHaveLength(2);
  });

  it('does not loop when the retry is still 401, and reports the session end', async () => {
    const onSessionExpired = vi.fn();
    const server = fakeServer({ refreshOk: false });
    const client = createApiClient({ fetch: server.fetch, onSessionExpired });
    const err = await client.get('/users/user/current').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);
    expect((err as ApiError).message).toBe('Unauthorized');
    expect(server.calls).toEqual(['GET /api/v1/users/user/current', 'POST /api/v1/users/refresh-token']);
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('retries at most once even if the server keeps answering 401 after a good refresh', async () => {
    const calls: string[] = [];
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      calls.push(String(input));
      return String(input).endsWith('refresh-token') ? json(200, null) : json(401, null, 'Unauthorized');
    });
    const client = createApiClient({ fetch: fetch as unknown as typeof globalThis.fetch });
    await expect(client.get('/x')).rejects.toMatchObject({ status: 401 });
    expect(calls).toEqual(['/api/v1/x', '/api/v1/users/refresh-token', '/api/v1/x']);
  });

  it('never refreshes for calls that opt out, such as login', async () => {
    const server = fakeServer();
    const client = createApiClient({ fetch: server.fetch });
    await expect(client.request('/users/login', { method: 'POST', body: {}, skipRefresh: true })).rejects.toMatchObject({
      status: 401,
    });
    expect(server.calls).toEqual(['POST /api/v1/users/login']);
  });

  it('carries status, message and data of a failure', async () => {
    const fetch = vi.fn(async () => json(409, null, 'username exists'));
    const client = createApiClient({ fetch: fetch as unknown as typeof globalThis.fetch });
    await expect(client.patch('/users/update-account', { username: 'x' })).rejects.toMatchObject({
      status: 409,
      message: 'username exists',
    });
  });
});
