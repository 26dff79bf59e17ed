import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAs } from '../../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { tusCreate, tusOffset, tusRequest, type TusResponse } from '../../../test/support/tus-client.js';

const MAX_VIDEO_BYTES = 64 * 1024 * 1024;
const EXTENSIONS = 'creation,creation-with-upload,termination,expiration';

/** An OPTIONS request with exactly these headers: no Tus-Resumable, no credentials unless given. */
function options(base: string, path: string, headers: Record<string, string> = {}): Promise<TusResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, base), { method: 'OPTIONS', headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const corsHeaders = (res: TusResponse) => Object.keys(res.headers).filter((name) => name.startsWith('access-control-'));

describe('OPTIONS /api/v1/uploads (tus discovery)', () => {
  let t: TestApp;
  let base: string;
  let owner: SignedIn;

  beforeAll(async () => {
    t = await createTestApp({ env: { MAX_VIDEO_BYTES: String(MAX_VIDEO_BYTES) } });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    owner = await t.signUp();
  });
  afterAll(() => t?.close());

  it('tells anyone, signed out and without Tus-Resumable, what the server speaks', async () => {
    const upload = (await tusCreate(base, owner, 10)).headers.location!;
    for (const path of ['/api/v1/uploads', upload]) {
      const res = await options(base, path);
      expect(res.status, path).toBe(204);
      expect(res.body).toBe('');
      expect(res.headers).toMatchObject({
        'tus-resumable': '1.0.0',
        'tus-version': '1.0.0',
        'tus-extension': EXTENSIONS,
        'tus-max-size': String(MAX_VIDEO_BYTES),
      });
    }
    // The owner asking gets the same answer; a missing or malformed id is refused like on every other route.
    expect((await tusRequest(base, { method: 'OPTIONS', path: upload, as: owner })).headers['tus-extension']).toBe(EXTENSIONS);
    const missing = await options(base, '/api/v1/uploads/notAnUpload1');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ statusCode: 404, success: false, data: null, message: 'Upload not found' });
    const bad = await options(base, '/api/v1/uploads/no');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ statusCode: 400, success: false, data: { errors: [{ path: 'id', message: 'Invalid id' }] } });
  });

  it('gives the size limit creation checks now, lowered by an admin below MAX_VIDEO_BYTES', async () => {
    const admin = await signUpAs(t, 'admin');
    const lowered = await t.call({ method: 'PATCH', url: '/api/v1/admin/settings', as: admin, payload: { maxVideoBytes: 1000 } });
    expect(lowered.statusCode).toBe(200);
    try {
      expect((await options(base, '/api/v1/uploads')).headers['tus-max-size']).toBe('1000');
      expect((await tusCreate(base, owner, 1001)).status).toBe(413);
      expect((await tusCreate(base, owner, 1000)).status).toBe(201);
    } finally {
      await t.call({ method: 'PATCH', url: '/api/v1/admin/settings', as: admin, payload: { maxVideoBytes: MAX_VIDEO_BYTES } });
    }
    expect((await options(base, '/api/v1/uploads')).headers['tus-max-size']).toBe(String(MAX_VIDEO_BYTES));
  });

  it('lists only extensions that work: data with the creation, an expiry, termination; no deferred length', async () => {
    const data = Buffer.from('0123456789');
    const created = await tusRequest(base, {
      method: 'POST',
      path: '/api/v1/uploads',
      as: owner,
      body: data,
      headers: { 'upload-length': String(data.length), 'content-type': 'application/offset+octet-stream' },
    });
    expect(created.status).toBe(201);
    expect(created.headers['upload-offset']).toBe(String(data.length));
    const location = created.headers.location!;
    expect(await tusOffset(base, owner, location)).toBe(data.length);

    const started = await tusCreate(base, owner, 100);
    const expires = Date.parse(String(started.headers['upload-expires']));
    expect(expires).toBeGreaterThan(Date.now() + 23 * 3600_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);

    expect((await tusRequest(base, { method: 'DELETE', path: started.headers.location!, as: owner })).status).toBe(204);
    expect((await tusRequest(base, { method: 'POST', path: '/api/v1/uploads', as: owner, headers: { 'upload-defer-length': '1' } })).status).toBe(400);
  });
});

describe('OPTIONS /api/v1/uploads from web clients on other origins', () => {
  const listed = 'https://app.example.com';
  const preflight = (origin: string) => ({
    origin,
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'tus-resumable,upload-length,upload-metadata,authorization',
  });
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { ALLOWED_ORIGINS: listed, MAX_VIDEO_BYTES: String(MAX_VIDEO_BYTES) } });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  it('answers a preflight from a listed origin with the same CORS headers as any other route', async () => {
    // Of an upload that does not exist too: the preflight is about the request to come.
    for (const path of ['/api/v1/uploads', '/api/v1/uploads/someUpload1']) {
      const res = await options(base, path, preflight(listed));
      expect(res.status).toBe(204);
      expect(res.headers).toMatchObject({ 'access-control-allow-origin': listed, 'access-control-allow-credentials': 'true', 'access-control-max-age': '600' });
      expect(String(res.headers['access-control-allow-methods'])).toContain('PATCH');
      expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('upload-length');
      // A route without an OPTIONS route of its own: the CORS hook answers its preflight alone.
      const elsewhere = await options(base, '/api/v1/videos/', preflight(listed));
      expect(elsewhere.status).toBe(204);
      for (const name of corsHeaders(elsewhere)) expect(res.headers[name], name).toBe(elsewhere.headers[name]);
      expect(corsHeaders(res).sort()).toEqual(corsHeaders(elsewhere).sort());
    }
  });

  it('lets a listed origin read the discovery answer, and gives any other origin no CORS headers', async () => {
    const discovery = await options(base, '/api/v1/uploads', { origin: listed });
    expect(discovery.status).toBe(204);
    expect(discovery.headers).toMatchObject({ 'access-control-allow-origin': listed, 'tus-version': '1.0.0', 'tus-max-size': String(MAX_VIDEO_BYTES) });
    const exposed = String(discovery.headers['access-control-expose-headers']).toLowerCase();
    for (const name of ['tus-version', 'tus-extension', 'tus-max-size']) expect(exposed).toContain(name);

    for (const headers of [preflight('https://evil.example'), { origin: 'https://evil.example' }]) {
      const res = await options(base, '/api/v1/uploads', headers);
      expect(corsHeaders(res)).toEqual([]);
      expect(res.headers['tus-version']).toBe('1.0.0');
    }
  });
});
