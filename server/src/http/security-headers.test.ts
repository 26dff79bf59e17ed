import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/test-app.js';
import { cspDirectives, inlineScriptHashes, registerSecurityHeaders } from './security-headers.js';

const directive = (csp: string | undefined, name: string) =>
  (csp ?? '')
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `))
    ?.slice(name.length + 1)
    .split(' ') ?? null;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
});
afterAll(async () => {
  await t?.close();
});

describe('security headers', () => {
  it('the client page gets a real policy: own scripts and the hashed theme snippet only, blob: media and workers, no framing', async () => {
    const page = await t.call({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    const csp = page.headers['content-security-policy'] as string;
    const html = fs.readFileSync(path.join(t.ctx.config.webDist!, 'index.html'), 'utf8');
    const hashes = inlineScriptHashes(html);
    expect(hashes.length).toBeGreaterThan(0);
    expect(directive(csp, 'script-src')).toEqual(["'self'", ...hashes]);
    expect(directive(csp, 'default-src')).toEqual(["'self'"]);
    expect(directive(csp, 'object-src')).toEqual(["'none'"]);
    expect(directive(csp, 'frame-ancestors')).toEqual(["'none'"]);
    expect(directive(csp, 'worker-src')).toEqual(["'self'", 'blob:']);
    expect(directive(csp, 'media-src')).toEqual(["'self'", 'blob:']);
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(csp).not.toContain("script-src 'self' 'unsafe-inline'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(page.headers['strict-transport-security']).toBeUndefined();
  });

  it('API answers, errors and media carry them too', async () => {
    for (const url of ['/api/v1/healthcheck', '/api/v1/videos/not-an-id', '/media/videos/x/missing.mp4']) {
      const res = await t.call({ method: 'GET', url });
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
    // Public media may be shown by any site, also through a CDN that keeps this header.
    expect((await t.call({ method: 'GET', url: '/static/default-avatar.svg' })).headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect((await t.call({ method: 'GET', url: '/api/v1/healthcheck' })).headers['cross-origin-resource-policy']).toBe('same-site');
  });

  it("the API's JSON answers get the strictest policy, without the headers that only concern pages", async () => {
    const res = await t.call({ method: 'GET', url: '/api/v1/videos/' });
    expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    for (const name of ['cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-xss-protection'])
      expect(res.headers[name], name).toBeUndefined();
    // The API's documentation is a page: it keeps a page's headers.
    expect((await t.call({ method: 'GET', url: '/api/docs/' })).headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('HSTS only when the request came over https (here through a trusted proxy)', async () => {
    const res = await t.call({ method: 'GET', url: '/api/v1/healthcheck', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it("a MEDIA_BASE_URL CDN and PUBLIC_URL are allowed for media, images and the player's fetches", () => {
    const d = cspDirectives({ publicUrl: 'https://video.example.com', mediaBaseUrl: 'https://cdn.example.net/reelhouse/', indexHtml: null });
    for (const name of ['imgSrc', 'mediaSrc', 'connectSrc'] as const) {
      expect(d[name]).toEqual(expect.arrayContaining(['https://video.example.com', 'https://cdn.example.net']));
    }
    expect(d.scriptSrc).toEqual(["'self'"]);
  });

  it("a site that federates lets pages load remote channels' media from any https server (http only where private addresses are allowed)", () => {
    const base = { publicUrl: 'https://video.example.com', mediaBaseUrl: null, indexHtml: null };
    const open = cspDirectives({ ...base, remoteMedia: { plainHttp: false } });
    for (const name of ['imgSrc', 'mediaSrc', 'connectSrc'] as const) {
      expect(open[name]).toContain('https:');
      expect(open[name]).not.toContain('http:');
    }
    expect(cspDirectives({ ...base, remoteMedia: { plainHttp: true } }).mediaSrc).toContain('http:');
    const closed = cspDirectives(base);
    expect([...closed.imgSrc, ...closed.mediaSrc, ...closed.connectSrc]).not.toContain('https:');
    expect(open.scriptSrc).toEqual(["'self'"]);
  });

  it('a route can opt in to being framed; every other route stays unframeable', async () => {
    const app = Fastify();
    await registerSecurityHeaders(app, { publicUrl: null, mediaBaseUrl: null, indexHtml: null });
    app.get('/embed/:id', { ...app.frameableBy(['https://partner.example']) }, async () => 'embed');
    app.get('/page', async () => 'page');
    await app.ready();
    const embed = await app.inject({ method: 'GET', url: '/embed/1' });
    expect(directive(embed.headers['content-security-policy'] as string, 'frame-ancestors')).toEqual(['https://partner.example']);
    expect(embed.headers['x-frame-options']).toBeUndefined();
    const page = await app.inject({ method: 'GET', url: '/page' });
    expect(directive(page.headers['content-security-policy'] as string, 'frame-ancestors')).toEqual(["'none'"]);
    expect(page.headers['x-frame-options']).toBe('DENY');
    await app.close();
  });

  it('hashes inline scripts only, not those loaded by src', () => {
    const html = '<script>a()</script><script type="module" src="/x.js"></script><script>\n b() \n</script>';
    expect(inlineScriptHashes(html)).toHaveLength(2);
  });
});
