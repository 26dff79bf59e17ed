import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_ID, seedVideo } from '../../../test/support/seed.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { inlineScriptHashes } from '../../http/security-headers.js';
import { refreshVideoAccess } from '../../db/video-access.js';

const ORIGIN = 'https://video.example.com';
const THEME_SCRIPT = '<script>document.documentElement.classList.add("light")</script>';
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="Reelhouse: watch, upload and share videos" />
    <title>Reelhouse</title>
    ${THEME_SCRIPT}
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`;
const NASTY = `Tom's "best" <script>alert(1)</script> & more`;

let t: TestApp;
let dist: string;
let owner: SignedIn;
beforeAll(async () => {
  dist = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-dist-'));
  await fs.writeFile(path.join(dist, 'index.html'), INDEX);
  t = await createTestApp({ env: { WEB_DIST: dist, PUBLIC_URL: ORIGIN } });
  owner = await t.signUp({ fullName: 'Ada "Byron" <L>' });
});
afterAll(async () => {
  await t?.close();
  await fs.rm(dist, { recursive: true, force: true });
});

const page = (url: string, as?: SignedIn) => t.call({ method: 'GET', url, as });

/** The content of every <meta> with this property or name (decoded as a browser would). */
function metaValues(html: string, key: string): string[] {
  const values: string[] = [];
  for (const m of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)" \/>/g)) {
    if (m[1] === key) values.push(decode(m[2]!));
  }
  return values;
}
const meta = (html: string, key: string) => metaValues(html, key)[0];
const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const titleOf = (html: string) => decode(/<title>([\s\S]*?)<\/title>/.exec(html)![1]!);

/** The page a link to something nobody may preview gets: the application's page as it was built. */
function expectPlainPage(html: string) {
  expect(html).toBe(INDEX);
}

describe('link previews of the video page', () => {
  it('carry OpenGraph and Twitter tags, the oEmbed link and a real title, all escaped', async () => {
    const video = await seedVideo(t.ctx, owner.id, { title: NASTY, description: `${NASTY}\n${'word '.repeat(80)}`, width: 1920, height: 1080 });
    const res = await page(`/video/${video.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    const html = res.body;
    expect(titleOf(html)).toBe(`${NASTY} - Reelhouse`);
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(meta(html, 'og:title')).toBe(NASTY);
    expect(meta(html, 'og:type')).toBe('video.other');
    expect(meta(html, 'og:url')).toBe(`${ORIGIN}/video/${video.id}`);
    expect(meta(html, 'og:site_name')).toBe('Reelhouse');
    expect(meta(html, 'og:description')!.startsWith(`${NASTY} word word`)).toBe(true);
    expect(meta(html, 'og:description')!.length).toBeLessThanOrEqual(200);
    expect(meta(html, 'og:image')).toBe(`${ORIGIN}/media/videos/${video.id}/thumbnail.webp`);
    expect(meta(html, 'og:video')).toBe(`${ORIGIN}/media/videos/${video.id}/video.mp4`);
    expect(meta(html, 'og:video:secure_url')).toBe(`${ORIGIN}/media/videos/${video.id}/video.mp4`);
    expect(meta(html, 'og:video:type')).toBe('video/mp4');
    expect([meta(html, 'og:video:width'), meta(html, 'og:video:height')]).toEqual(['1920', '1080']);
    expect(meta(html, 'twitter:card')).toBe('player');
    expect(meta(html, 'twitter:player')).toBe(`${ORIGIN}/embed/${video.id}`);
    expect([meta(html, 'twitter:player:width'), meta(html, 'twitter:player:height')]).toEqual(['640', '360']);
    expect(meta(html, 'robots')).toBeUndefined();
    // One description: the page's own replaces the application's generic one.
    expect(metaValues(html, 'description')).toHaveLength(1);
    const oembed = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(html)![1]!;
    expect(decode(oembed)).toBe(`${ORIGIN}/api/v1/oembed?url=${encodeURIComponent(`${ORIGIN}/video/${video.id}`)}&format=json`);
    // Nothing broke out of an attribute or the title: no tag but the application's own scripts.
    expect(html).not.toContain('<script>alert(1)');
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(inlineScriptHashes(html)).toEqual(inlineScriptHashes(INDEX));
  });

  it('keeps the policy that allows only the theme script, and forbids framing', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const res = await page(`/video/${video.id}`);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain(`script-src 'self' ${inlineScriptHashes(INDEX)[0]}`);
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('previews an unlisted video (its link was shared on purpose) but asks search engines not to index it', async () => {
    const video = await seedVideo(t.ctx, owner.id, { visibility: 'unlisted', title: 'Shared by link' });
    const html = (await page(`/video/${video.id}`)).body;
    expect(meta(html, 'og:title')).toBe('Shared by link');
    expect(meta(html, 'robots')).toBe('noindex');
  });

  it("gives the plain page for a private, unprocessed or taken-down video, a banned owner's, a missing or malformed id: to anyone, the owner too", async () => {
    const banned = await t.signUp();
    const ofBanned = await seedVideo(t.ctx, banned.id);
    await t.ctx.db.updateTable('users').set({ banned_at: Date.now() }).where('id', '=', banned.id).execute();
    await refreshVideoAccess(t.ctx.db, { ownerId: banned.id });
    const ids = [
      (await seedVideo(t.ctx, owner.id, { visibility: 'private', title: 'Secret plans' })).id,
      (await seedVideo(t.ctx, owner.id, { status: 'processing' })).id,
      (await seedVideo(t.ctx, owner.id, { hidden_at: Date.now(), hidden_reason: 'spam' })).id,
      ofBanned.id,
      MISSING_ID,
      'not*an*id',
      '%27%22%3E',
    ];
    for (const id of ids) {
      for (const as of [undefined, owner]) {
        const res = await page(`/video/${id}`, as);
        expect(res.statusCode, id).toBe(200);
        expectPlainPage(res.body);
      }
    }
  });

  it('other pages of the application are served as built', async () => {
    for (const url of ['/', '/login', `/video/${MISSING_ID}/extra`, '/some/unknown/path']) expectPlainPage((await page(url)).body);
  });
});

describe('link previews of the channel page', () => {
  it('carry the channel name, avatar and profile type', async () => {
    for (const url of [`/channel/${owner.username}`, `/channel/${owner.username.toUpperCase()}/videos`]) {
      const html = (await page(url)).body;
      expect(titleOf(html), url).toBe(`Ada "Byron" <L> (@${owner.username}) - Reelhouse`);
      expect(meta(html, 'og:type')).toBe('profile');
      expect(meta(html, 'og:url')).toBe(`${ORIGIN}/channel/${owner.username}`);
      expect(meta(html, 'og:image')).toBe(`${ORIGIN}/static/default-avatar.svg`);
      expect(meta(html, 'twitter:card')).toBe('summary');
      expect(html).not.toContain('<L>');
      // Feed readers find the channel's feeds from its page.
      expect(html).toContain(`<link rel="alternate" type="application/rss+xml" href="${ORIGIN}/feeds/channel/${owner.username}.xml"`);
      expect(html).toContain(`<link rel="alternate" type="application/atom+xml" href="${ORIGIN}/feeds/channel/${owner.username}.atom"`);
    }
  });

  it('gives the plain page for an unknown or banned channel', async () => {
    const banned = await t.signUp();
    await t.ctx.db.updateTable('users').set({ banned_at: Date.now() }).where('id', '=', banned.id).execute();
    for (const url of ['/channel/nobody_at_all', `/channel/${banned.username}`]) expectPlainPage((await page(url)).body);
  });
});

describe('the embed page', () => {
  it("may be framed by any site, carries the video's title and tags but is not indexed; other pages may not be framed", async () => {
    const video = await seedVideo(t.ctx, owner.id, { title: 'Framed anywhere' });
    const res = await page(`/embed/${video.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain('frame-ancestors *');
    expect(res.headers['content-security-policy']).toContain(`script-src 'self' ${inlineScriptHashes(INDEX)[0]}`);
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(titleOf(res.body)).toBe('Framed anywhere - Reelhouse');
    expect(meta(res.body, 'robots')).toBe('noindex');
    for (const url of [`/video/${video.id}`, '/', `/channel/${owner.username}`, '/api/v1/healthcheck', `/feeds/videos.xml`]) {
      const other = await page(url);
      expect(other.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(other.headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it('is the plain page, still frameable, for a video nobody may watch', async () => {
    const video = await seedVideo(t.ctx, owner.id, { visibility: 'private' });
    const res = await page(`/embed/${video.id}`);
    expect(res.statusCode).toBe(200);
    expectPlainPage(res.body);
    expect(res.headers['content-security-policy']).toContain('frame-ancestors *');
  });
});

describe('the embed page with EMBED_ALLOWED_ORIGINS', () => {
  it('may be framed by the listed sites only', async () => {
    const listed = await createTestApp({ env: { WEB_DIST: dist, EMBED_ALLOWED_ORIGINS: 'https://blog.example.com,https://wiki.example.org' } });
    try {
      const res = await listed.call({ method: 'GET', url: '/embed/AAAAAAAAAAAAAAAAAAAAAAAA' });
      expect(res.headers['content-security-policy']).toContain('frame-ancestors https://blog.example.com https://wiki.example.org');
      expect((await listed.call({ method: 'GET', url: '/' })).headers['content-security-policy']).toContain("frame-ancestors 'none'");
    } finally {
      await listed.close();
    }
  });
});

describe("link previews in the reader's language", () => {
  const inJapanese = (url: string) => t.call({ method: 'GET', url, headers: { 'accept-language': 'ja,en-US;q=0.7' } });

  it("write the video page's own words in Japanese with Accept-Language: ja, and leave the owner's title as written", async () => {
    const video = await seedVideo(t.ctx, owner.id, { title: 'Kyoto in autumn', description: '' });
    const res = await inJapanese(`/video/${video.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers.vary).toContain('Accept-Language');
    expect(meta(res.body, 'og:title')).toBe('Kyoto in autumn');
    expect(meta(res.body, 'og:description')).toBe('Ada "Byron" <L> が Reelhouse で公開した動画');
    expect(meta(res.body, 'twitter:description')).toBe('Ada "Byron" <L> が Reelhouse で公開した動画');
    // In English, as before.
    expect(meta((await page(`/video/${video.id}`)).body, 'og:description')).toBe('A video by Ada "Byron" <L> on Reelhouse');
  });

  it('write the channel page in Japanese, its feeds linked in Japanese too', async () => {
    const html = (await inJapanese(`/channel/${owner.username}`)).body;
    expect(meta(html, 'og:description')).toBe('Reelhouse で公開されている Ada "Byron" <L> の動画');
    expect(html).toContain(`href="${ORIGIN}/feeds/channel/${owner.username}.xml?lang=ja"`);
    expect(html).toContain(`href="${ORIGIN}/feeds/channel/${owner.username}.atom?lang=ja"`);
    const english = (await page(`/channel/${owner.username}`)).body;
    expect(meta(english, 'og:description')).toBe('Videos of Ada "Byron" <L> on Reelhouse');
  });
});
