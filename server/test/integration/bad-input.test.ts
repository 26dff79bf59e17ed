import fs from 'node:fs/promises';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoutes, createWorld, fillUrl, queryString, type AppRoute, type ValidCall } from '../route-fixtures/index.js';
import { fixtureFile } from '../support/fixtures.js';
import { buildRequest, rawRequest } from '../support/raw-http.js';
import { startOpenIdProvider, type OpenIdProvider } from '../support/openid-provider.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Malformed requests for every route the app registers, generated from the route table and each
 * route's fixture (a valid request, broken one way at a time). Every one must answer a 4xx with the
 * envelope, within 5 s, without a stack trace; afterwards the server still answers, no temporary
 * file is left and no row was written.
 */

const MAX_IMAGE_BYTES = 256 * 1024;
const MAX_VIDEO_BYTES = 4 * 1024 * 1024;
const BOUNDARY = 'reelhouseBoundary7MA4YWxkTrZu0gW';

interface Variant {
  name: string;
  raw: Buffer;
}

let t: TestApp;
let provider: OpenIdProvider;
let port: number;
let routes: AppRoute[];
let missing: string[];
const valid = new Map<string, ValidCall>();
let before: Record<string, number>;
let sent = 0;

const TABLES = [
  'users',
  'videos',
  'comments',
  'likes',
  'subscriptions',
  'playlists',
  'playlist_videos',
  'watch_history',
  'captions',
  'caption_cues',
  'live_chat_messages',
  'live_chat_bans',
] as const;
async function rowCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await t.ctx.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}

beforeAll(async () => {
  // SMTP_URL turns the mail routes on; jobs do not run in this app, so nothing is sent. A real
  // OpenID Provider gives the single sign-on routes valid calls to break.
  const sso = { clientId: 'reelhouse-test', clientSecret: 'a-client-secret-for-tests' };
  provider = await startOpenIdProvider({ ...sso, redirectUris: ['http://localhost/api/v1/auth/oidc/campus/callback'], anyAccount: true });
  t = await createTestApp({
    env: {
      MAX_IMAGE_BYTES: String(MAX_IMAGE_BYTES),
      MAX_VIDEO_BYTES: String(MAX_VIDEO_BYTES),
      SMTP_URL: 'smtp://127.0.0.1:9',
      OIDC_PROVIDERS: JSON.stringify([{ name: 'campus', label: 'Campus ID', issuer: provider.issuer, ...sso }]),
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  ({ routes, missing } = appRoutes(t.app));
  const world = createWorld(t, { userPool: 4 });
  for (const r of routes) if (r.fixture) valid.set(r.key, await r.fixture.valid(world));
  for (const name of ['image.png', 'image.gif', 'garbage.png', 'not-video.mp4', 'clip.mp4', 'bomb.png']) await fixtureFile(name);
  before = await rowCounts();
}, 180_000);

afterAll(async () => {
  await t?.close();
  await provider?.close();
});

const authHeaders = (v: ValidCall | undefined): Record<string, string> => (v?.as ? { authorization: `Bearer ${v.as.accessToken}` } : {});

/** The path of a route with its valid parameters, or sample ones for routes without a fixture. */
function validPath(r: AppRoute, v: ValidCall | undefined, query = true): string {
  const params = v?.params ?? { '*': 'index.html' };
  return fillUrl(r.url, params) + (query ? queryString(v?.query) : '');
}

function request(r: AppRoute, v: ValidCall | undefined, opts: { path?: string; headers?: Record<string, string>; body?: Buffer | string } = {}): Buffer {
  return buildRequest(r.method, opts.path ?? validPath(r, v), { ...authHeaders(v), ...opts.headers }, opts.body);
}

/** Values no path parameter accepts, already encoded for the path. */
const PARAM_VALUES: Record<string, string> = {
  huge: 'a'.repeat(5000),
  space: '%20',
  traversal: '..%2F..%2F..%2Fetc%2Fpasswd',
  'dot-dot': '..',
  'sql injection': encodeURIComponent("' OR '1'='1' --"),
  'nosql operator': encodeURIComponent('{"$gt":""}'),
  'script tag': encodeURIComponent('<script>alert(1)</script>'),
  'nul byte': '%00',
  'crlf injection': '%0D%0ASet-Cookie:%20a=b',
  'rtl and zero-width': encodeURIComponent('\u202Eabc\u200Bdef\uFEFF'),
  emoji: encodeURIComponent('😀'.repeat(8)),
  'lone surrogate': '%ED%A0%80',
  'bad percent-encoding': '%E0%A4%A',
  'overlong utf-8': '%C0%AE%C0%AE%C0%AF',
  'negative number': '-1',
  'well-formed but missing': 'AAAAAAAAAAAAAAAAAAAAAAAA',
};

/** Query values that no typed (number or enum) query key accepts. */
const QUERY_VALUES: Record<string, string> = {
  text: 'abc',
  negative: '-1',
  zero: '0',
  fraction: '1.5',
  'huge number': '1e400',
  'beyond safe integers': '99999999999999999999999',
  huge: 'x'.repeat(7000),
  'sql injection': "' OR 1=1 --",
  unicode: '\u202E😀\u0000',
};
/** Free-text query keys accept any text; only their length is bounded. */
const FREE_TEXT_QUERY = new Set(['query']);

function genericVariants(r: AppRoute, v: ValidCall | undefined): Variant[] {
  const p = validPath(r, v, false);
  return [
    { name: 'over-long URL', raw: request(r, v, { path: `${p}?pad=${'a'.repeat(9000)}` }) },
    { name: 'over-long header', raw: request(r, v, { headers: { 'x-pad': 'a'.repeat(20_000) } }) },
    {
      name: 'too many header bytes in many headers',
      raw: request(r, v, { headers: Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`x-h${i}`, 'b'.repeat(60)])) }),
    },
    { name: 'bad percent-encoding in the path', raw: request(r, v, { path: `${p.replace(/\/$/, '')}/%E0%A4%A` }) },
    { name: 'control character in a header', raw: request(r, v, { headers: { 'x-bad': 'a\u0001b' } }) },
    {
      name: 'Content-Length and Transfer-Encoding both',
      raw: request(r, v, { headers: { 'content-length': '4', 'transfer-encoding': 'chunked' }, body: '0\r\n\r\n' }),
    },
    { name: 'not HTTP at all', raw: Buffer.from(`${r.method} ${p} SPDY/9\r\n\r\n`) },
  ];
}

function paramVariants(r: AppRoute, v: ValidCall): Variant[] {
  const out: Variant[] = [];
  for (const name of Object.keys(v.params ?? {})) {
    for (const [label, value] of Object.entries(PARAM_VALUES)) {
      const encoded = Object.fromEntries(Object.entries(v.params!).map(([k, x]) => [k, k === name ? value : encodeURIComponent(x)]));
      out.push({ name: `${name}: ${label}`, raw: request(r, v, { path: fillUrl(r.url, encoded, true) + queryString(v.query) }) });
    }
  }
  return out;
}

function queryVariants(r: AppRoute, v: ValidCall): Variant[] {
  const out: Variant[] = [];
  const base = validPath(r, v, false);
  for (const key of r.queryKeys) {
    // An id-typed key takes any long enough digit string: that one names nothing and is no error.
    const values = FREE_TEXT_QUERY.has(key)
      ? { huge: QUERY_VALUES.huge! }
      : key.endsWith('Id')
        ? Object.fromEntries(Object.entries(QUERY_VALUES).filter(([label]) => label !== 'beyond safe integers'))
        : QUERY_VALUES;
    for (const [label, value] of Object.entries(values)) {
      out.push({ name: `?${key}: ${label}`, raw: request(r, v, { path: base + queryString({ ...v.query, [key]: value }) }) });
    }
    if (!FREE_TEXT_QUERY.has(key)) {
      out.push({ name: `?${key}: repeated`, raw: request(r, v, { path: `${base}?${key}=1&${key}=2` }) });
      out.push({ name: `?${key}: bad percent-encoding`, raw: request(r, v, { path: `${base}?${key}=%E0%A4%A` }) });
    }
  }
  return out;
}

function jsonVariants(r: AppRoute, v: ValidCall): Variant[] {
  const json = (body: string, contentType = 'application/json') => request(r, v, { headers: { 'content-type': contentType }, body });
  const out: Variant[] = [
    { name: 'JSON cut off', raw: json('{"a":') },
    { name: 'not JSON', raw: json('garbage garbage') },
    { name: 'trailing brace', raw: json('{"a":1}}') },
    // An empty object behind a byte-order mark is no error for a route whose body is all optional.
    ...(v.emptyBodyAccepted ? [] : [{ name: 'byte-order mark', raw: json('\uFEFF{}') }]),
    { name: 'an array', raw: json('[]') },
    { name: 'a string', raw: json('"text"') },
    { name: 'a number', raw: json('123') },
    { name: '__proto__ key', raw: json('{"__proto__":{"role":"admin"}}') },
    { name: 'constructor.prototype key', raw: json('{"constructor":{"prototype":{"role":"admin"}}}') },
    { name: 'nested 5000 deep', raw: json(`${'['.repeat(5000)}${']'.repeat(5000)}`) },
    { name: 'over 1 MiB', raw: json(JSON.stringify({ ...v.json, pad: 'x'.repeat(1024 * 1024 + 10) })) },
    { name: 'declared text/plain', raw: json(JSON.stringify(v.json ?? {}), 'text/plain') },
    { name: 'declared form-urlencoded', raw: json('a=b', 'application/x-www-form-urlencoded') },
  ];
  for (const key of r.bodyKeys) {
    const wrong: Record<string, unknown> = {
      number: 12345,
      object: { nested: true },
      array: ['a'],
      boolean: true,
      null: null,
      'huge string': 'x'.repeat(100_000),
      'empty string': '',
      'only spaces': '     ',
      'nul byte': 'before\u0000after',
    };
    for (const [label, value] of Object.entries(wrong)) {
      if (v.blankIgnored?.includes(key) && typeof value === 'string' && !value.trim()) continue;
      if (v.accepts?.[key]?.includes(label)) continue;
      out.push({ name: `${key}: ${label}`, raw: json(JSON.stringify({ ...v.json, [key]: value })) });
    }
  }
  return out;
}

function multipartBody(
  parts: { name: string; filename?: string; type?: string; data: Buffer | string; headers?: string }[],
  opts: { close?: boolean } = {},
): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition =
      p.headers ??
      `Content-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}${p.type ? `\r\nContent-Type: ${p.type}` : ''}`;
    chunks.push(Buffer.from(`--${BOUNDARY}\r\n${disposition}\r\n\r\n`), Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data), Buffer.from('\r\n'));
  }
  if (opts.close !== false) chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  srt: 'application/x-subrip',
  vtt: 'text/vtt',
};

async function fileParts(files: Record<string, string>, replace: Record<string, { name: string; data?: Buffer }> = {}) {
  const parts = [];
  for (const [field, name] of Object.entries(files)) {
    const use = replace[field] ?? { name };
    const data = use.data ?? (await fs.readFile(await fixtureFile(use.name)));
    const ext = name.split('.').pop()!;
    parts.push({ name: field, filename: path.basename(name), type: MIME[ext] ?? 'application/octet-stream', data });
  }
  return parts;
}

async function multipartVariants(r: AppRoute, v: ValidCall): Promise<Variant[]> {
  const mp = (body: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`) => request(r, v, { headers: { 'content-type': contentType }, body });
  const textParts = Object.entries(v.fields ?? {}).map(([name, data]) => ({ name, data }));
  const files = v.files ?? {};
  const validParts = [...textParts, ...(await fileParts(files))];
  const whole = multipartBody(validParts);
  const out: Variant[] = [
    { name: 'boundary not the declared one', raw: mp(whole, 'multipart/form-data; boundary=somethingElse') },
    { name: 'no closing boundary', raw: mp(multipartBody(validParts, { close: false })) },
    { name: 'cut off in the middle of a file', raw: mp(whole.subarray(0, Math.floor(whole.length * 0.6))) },
    { name: 'garbage body', raw: mp(Buffer.from('garbage '.repeat(100))) },
    { name: 'empty body', raw: mp(Buffer.alloc(0)) },
    { name: 'no boundary declared', raw: mp(whole, 'multipart/form-data') },
    {
      name: 'a part with no Content-Disposition',
      raw: mp(multipartBody([...validParts.slice(0, 1), { name: 'x', headers: 'Content-Type: text/plain', data: 'hello' }, ...validParts.slice(1)])),
    },
    // Each malformed part small and large: a parser skips such a part silently, and a server that
    // waited for the body's end to notice would hang on the small one (the whole body already sent).
    ...[5000, 88 * 1024, 7 * 1024 * 1024].map((bytes) => ({
      name: `only a part with no Content-Disposition (${bytes} bytes)`,
      raw: mp(multipartBody([{ name: 'x', headers: 'Content-Type: application/octet-stream', data: Buffer.alloc(bytes, 120) }])),
    })),
    {
      name: 'a large part with no Content-Disposition before the valid ones',
      raw: mp(multipartBody([{ name: 'x', headers: 'Content-Type: video/mp4', data: Buffer.alloc(1024 * 1024, 7) }, ...validParts])),
    },
    {
      name: 'a large part with a malformed header',
      raw: mp(
        multipartBody([...validParts.slice(0, 1), { name: 'x', headers: 'this is not a header', data: Buffer.alloc(512 * 1024, 7) }, ...validParts.slice(1)]),
      ),
    },
    { name: 'a malformed part header', raw: mp(multipartBody([{ name: 'x', headers: 'this is not a header', data: 'hello' }, ...validParts])) },
    { name: 'an unexpected file field', raw: mp(multipartBody([...validParts, { name: 'evil', filename: 'evil.sh', type: 'text/x-sh', data: '#!/bin/sh' }])) },
    { name: 'JSON instead of multipart', raw: request(r, v, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(v.fields ?? {}) }) },
    { name: 'too many parts', raw: mp(multipartBody([...Array.from({ length: 40 }, (_, i) => ({ name: `f${i}`, data: 'x' })), ...validParts])) },
  ];
  for (const field of Object.keys(v.fields ?? {})) {
    out.push({ name: `${field}: over 64 KiB`, raw: mp(multipartBody(validParts.map((p) => (p.name === field ? { ...p, data: 'x'.repeat(70 * 1024) } : p)))) });
    out.push({ name: `${field}: nul byte`, raw: mp(multipartBody(validParts.map((p) => (p.name === field ? { ...p, data: 'before\u0000after' } : p)))) });
  }
  for (const [field, name] of Object.entries(files)) {
    const isVideo = name.endsWith('.mp4');
    const limit = isVideo ? MAX_VIDEO_BYTES : MAX_IMAGE_BYTES;
    const swap = async (label: string, use: { name: string; data?: Buffer }) =>
      out.push({ name: `${field}: ${label}`, raw: mp(multipartBody([...textParts, ...(await fileParts(files, { [field]: use }))])) });
    await swap('text disguised by its name', { name: isVideo ? 'not-video.mp4' : 'garbage.png' });
    await swap('larger than the limit', { name, data: Buffer.alloc(limit + 1024, 7) });
    out.push({ name: `${field}: a second copy`, raw: mp(multipartBody([...validParts, ...validParts.filter((p) => p.name === field)])) });
    if (isVideo) {
      await swap('an image named .mp4', { name: 'image.png' });
    } else if (/\.(srt|vtt)$/.test(name)) {
      // Caption files: text that is not captions, captions that break the rules, markup and no words.
      const caption = (label: string, text: string) => swap(label, { name, data: Buffer.from(text) });
      await caption('a caption file with no cue', 'WEBVTT\n\nNOTE nothing but a comment\n');
      await caption('a caption file whose only cue is a script', 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n<script>alert(document.cookie)</script>\n');
      await caption(
        'a caption file with only style and markup',
        'WEBVTT\n\nSTYLE\n::cue { background: url(https://evil.example/x) }\n\n00:00:00.000 --> 00:00:01.000\n<b><img src=x onerror=alert(1)></b>\n',
      );
      await caption('cues out of order', 'WEBVTT\n\n00:00:05.000 --> 00:00:06.000\nLater\n\n00:00:01.000 --> 00:00:02.000\nEarlier\n');
      await caption('a cue that ends before it starts', '1\n00:00:05,000 --> 00:00:01,000\nBackwards\n');
      await caption('a cue far past the end of the video', '1\n10:00:00,000 --> 10:00:01,000\nToo late\n');
      await caption('broken times', 'WEBVTT\n\n00:00:aa.000 --> 00:00:01.000\nBroken\n');
      await swap('binary bytes named as captions', { name, data: Buffer.from([0x57, 0x45, 0x42, 0x56, 0x54, 0x54, 0x0a, 0x00, 0xff, 0x10, 0x02]) });
      await swap('an image named as captions', { name: 'image.png' });
      await swap('a video named as captions', { name: 'clip.mp4' });
    } else {
      await swap('a 30000x30000 PNG bomb', { name: 'bomb.png' });
      await swap('a GIF', { name: 'image.gif' });
      await swap('a video named .png', { name: 'clip.mp4' });
    }
  }
  return out;
}

async function variantsOf(r: AppRoute): Promise<Variant[]> {
  const v = valid.get(r.key);
  const out = genericVariants(r, v);
  if (!v) return out;
  out.push(...paramVariants(r, v), ...queryVariants(r, v));
  if (r.fixture?.multipart) out.push(...(await multipartVariants(r, v)));
  else if (r.hasJsonBody) out.push(...jsonVariants(r, v));
  return out;
}

/** What is wrong with an answer to a malformed request, or null if it is right. */
function problemWith(res: { status: number; headers: Record<string, string>; body: string }): string | null {
  if (!(res.status >= 400 && res.status < 500)) return `status ${res.status}`;
  if (!res.headers['content-type']?.includes('application/json')) return `content-type ${res.headers['content-type']}`;
  let body: { statusCode?: unknown; data?: unknown; message?: unknown; success?: unknown };
  try {
    body = JSON.parse(res.body);
  } catch {
    return `body is not JSON: ${res.body.slice(0, 120)}`;
  }
  if (body.statusCode !== res.status || body.success !== false || typeof body.message !== 'string' || !body.message || !('data' in body)) {
    return `not the envelope: ${res.body.slice(0, 200)}`;
  }
  if (/\n\s+at |node_modules|\.ts:\d+|\.js:\d+/.test(res.body)) return `stack trace in the body: ${res.body.slice(0, 200)}`;
  return null;
}

describe('malformed requests to every route', () => {
  it('every route the app registers has a fixture in test/route-fixtures', () => {
    expect(missing, `routes with no fixture in server/test/route-fixtures: ${missing.join(', ')}`).toEqual([]);
    expect(routes.filter((r) => r.fixture).length).toBeGreaterThan(30);
  });

  it('each answers a 4xx with the envelope, within 5 s, and the server keeps answering', async () => {
    const failures: string[] = [];
    for (const r of routes) {
      for (const variant of await variantsOf(r)) {
        sent++;
        try {
          const res = await rawRequest(port, variant.raw, 5000);
          const problem = problemWith(res);
          if (problem) failures.push(`${r.key} [${variant.name}]: ${problem}`);
        } catch (err) {
          failures.push(`${r.key} [${variant.name}]: ${(err as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(400);
    console.info(`bad-input suite: ${sent} malformed requests over ${routes.length} routes`);
    const health = await rawRequest(port, buildRequest('GET', '/api/v1/healthcheck', {}));
    expect(health.status).toBe(200);
  }, 600_000);

  it('left no temporary file and wrote no row', async () => {
    const leftovers = await fs.readdir(t.ctx.tmpDir).catch(() => []);
    expect(leftovers).toEqual([]);
    expect(await rowCounts()).toEqual(before);
  });
});
