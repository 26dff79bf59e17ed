import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedVideo } from '../../../test/support/seed.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { refreshVideoAccess } from '../../db/video-access.js';
import { FEED_SIZE } from './feeds.service.js';

const ORIGIN = 'https://video.example.com';

let t: TestApp;
let owner: SignedIn;
let other: SignedIn;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: ORIGIN } });
  owner = await t.signUp({ fullName: 'Ada <Lovelace> & "Co"' });
  other = await t.signUp();
});
afterAll(() => t.close());

const get = (url: string, as?: SignedIn, headers: Record<string, string> = {}) => t.call({ method: 'GET', url, as, headers });
/** The <item> (RSS) or <entry> (Atom) elements of a feed. */
const entries = (xml: string) => [...xml.matchAll(/<(item|entry)>([\s\S]*?)<\/\1>/g)].map((m) => m[2]!);

describe('GET /feeds/videos.xml and /feeds/videos.atom', () => {
  it('lists the newest listed videos as RSS 2.0 with absolute links, thumbnail, author and date, cached a few minutes', async () => {
    const video = await seedVideo(t.ctx, owner.id, { title: 'Tom & Jerry <3 "quotes"', description: 'First line\nsecond' });
    const res = await get('/feeds/videos.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.body).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?>\s*<rss version="2.0"/);
    expect(res.body).toContain(`<atom:link href="${ORIGIN}/feeds/videos.xml" rel="self" type="application/rss+xml"/>`);
    const item = entries(res.body).find((e) => e.includes(video.id))!;
    expect(item).toContain('<title><![CDATA[Tom & Jerry <3 "quotes"]]></title>');
    expect(item).toContain(`<link>${ORIGIN}/video/${video.id}</link>`);
    expect(item).toContain('<description><![CDATA[First line\nsecond]]></description>');
    expect(item).toContain(`<pubDate>${new Date(video.created_at).toUTCString()}</pubDate>`);
    expect(item).toContain(`<enclosure length="0" type="image/webp" url="${ORIGIN}/media/videos/${video.id}/thumbnail.webp"/>`);
    expect(item).toContain('<author>Ada &lt;Lovelace&gt; &amp; "Co"</author>');
    // The HTML body a reader shows is escaped once inside its CDATA section.
    expect(item).toContain('<content:encoded><![CDATA[<p><a href="https://video.example.com/video/');
    expect(item).toContain('alt="Tom &amp; Jerry &lt;3 &quot;quotes&quot;"');
  });

  it('answers Atom at .atom', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    const res = await get('/feeds/videos.atom');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(res.body).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    const entry = entries(res.body).find((e) => e.includes(video.id))!;
    expect(entry).toContain(`<link href="${ORIGIN}/video/${video.id}"/>`);
    expect(entry).toContain(`<link rel="enclosure" href="${ORIGIN}/media/videos/${video.id}/thumbnail.webp" type="image/webp"/>`);
    expect(entry).toContain(`<uri>${ORIGIN}/channel/${owner.username}</uri>`);
    expect(entry).toMatch(/<updated>\d{4}-\d\d-\d\dT/);
  });

  it('shows only what anyone may see: no private, unlisted, unprocessed or taken-down video, none of a banned owner, to anyone signed in either', async () => {
    const seen = await seedVideo(t.ctx, owner.id, { title: 'Seen by all' });
    const hidden = [
      await seedVideo(t.ctx, owner.id, { visibility: 'private' }),
      await seedVideo(t.ctx, owner.id, { visibility: 'unlisted' }),
      await seedVideo(t.ctx, owner.id, { status: 'processing' }),
      await seedVideo(t.ctx, owner.id, { hidden_at: Date.now(), hidden_reason: 'spam' }),
    ];
    const banned = await t.signUp();
    const ofBanned = await seedVideo(t.ctx, banned.id);
    await t.ctx.db.updateTable('users').set({ banned_at: Date.now() }).where('id', '=', banned.id).execute();
    await refreshVideoAccess(t.ctx.db, { ownerId: banned.id });
    for (const as of [undefined, owner, other]) {
      const body = (await get('/feeds/videos.xml', as)).body;
      expect(body).toContain(seen.id);
      for (const v of [...hidden, ofBanned]) expect(body).not.toContain(v.id);
    }
  });

  it(`keeps the newest ${FEED_SIZE}, newest first`, async () => {
    const prolific = await t.signUp();
    for (let i = 0; i < FEED_SIZE + 2; i++) await seedVideo(t.ctx, prolific.id, { title: `Numbered ${i}` });
    const items = entries((await get(`/feeds/channel/${prolific.username}.xml`)).body);
    expect(items).toHaveLength(FEED_SIZE);
    expect(items[0]).toContain(`Numbered ${FEED_SIZE + 1}`);
    expect(items.at(-1)).toContain('Numbered 2]]');
  });

  it('builds links on the address the request was sent to when PUBLIC_URL is not set', async () => {
    const plain = await createTestApp({ env: { TRUST_PROXY: 'true' } });
    try {
      const someone = await plain.signUp();
      const video = await seedVideo(plain.ctx, someone.id);
      const res = await plain.call({ method: 'GET', url: '/feeds/videos.xml', headers: { host: 'videos.lan:8080', 'x-forwarded-proto': 'https' } });
      expect(res.body).toContain(`<link>https://videos.lan:8080/video/${video.id}</link>`);
      expect(res.body).toContain(`url="https://videos.lan:8080/media/videos/${video.id}/thumbnail.webp"`);
    } finally {
      await plain.close();
    }
  });
});

describe('GET /feeds/channel/{username}.xml and .atom', () => {
  it("lists only that channel's listed videos, titled with its name", async () => {
    const mine = await seedVideo(t.ctx, owner.id);
    const theirs = await seedVideo(t.ctx, other.id);
    for (const ext of ['xml', 'atom']) {
      const res = await get(`/feeds/channel/${owner.username}.${ext}`);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(mine.id);
      expect(res.body).not.toContain(theirs.id);
      expect(res.body).toContain(`(@${owner.username}) on Reelhouse`);
    }
  });

  it('takes the username in any case', async () => {
    const res = await get(`/feeds/channel/${owner.username.toUpperCase()}.xml`);
    expect(res.statusCode).toBe(200);
  });

  it('is a 404 with the envelope for an unknown or banned channel', async () => {
    const banned = await t.signUp();
    await t.ctx.db.updateTable('users').set({ banned_at: Date.now() }).where('id', '=', banned.id).execute();
    for (const url of ['/feeds/channel/nobody_here.xml', `/feeds/channel/${banned.username}.atom`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ statusCode: 404, data: null, message: 'Channel not found', success: false });
    }
  });

  it('is a 400 with the envelope for a malformed name or format', async () => {
    for (const file of ['ab.xml', `${owner.username}.json`, `${owner.username}`, 'bad-name!.xml', `${'a'.repeat(31)}.xml`, '.xml']) {
      const res = await get(`/feeds/channel/${encodeURIComponent(file)}`);
      expect(res.statusCode, file).toBe(400);
      expect(res.json().success, file).toBe(false);
    }
  });
});

describe("the feeds' own words in the reader's language", () => {
  it('follow Accept-Language: Japanese titles and descriptions, the videos as their owners wrote them', async () => {
    const video = await seedVideo(t.ctx, owner.id, { title: 'My trip to Kyoto' });
    const channel = await get(`/feeds/channel/${owner.username}.xml`, undefined, { 'accept-language': 'ja-JP,ja;q=0.9,en;q=0.5' });
    expect(channel.statusCode).toBe(200);
    expect(channel.headers.vary).toContain('Accept-Language');
    expect(channel.body).toContain(`(@${owner.username}) - Reelhouse`);
    expect(channel.body).toContain('Reelhouse で公開されている Ada');
    expect(channel.body).toContain('の新着動画');
    expect(channel.body).toContain('My trip to Kyoto');
    // A reader subscribed from the feed's own link keeps the language.
    expect(channel.body).toContain(`${ORIGIN}/feeds/channel/${owner.username}.xml?lang=ja`);
    const site = await get('/feeds/videos.atom', undefined, { 'accept-language': 'ja' });
    expect(site.body).toContain('Reelhouse：新着動画');
    expect(site.body).toContain(video.id);
  });

  it('follow ?lang= before Accept-Language, as feed readers seldom set the header', async () => {
    const res = await get(`/feeds/channel/${owner.username}.atom?lang=fr-CA`, undefined, { 'accept-language': 'ja' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`(@${owner.username}) sur Reelhouse`);
    expect(res.body).toContain('Les dernières vidéos de Ada');
    // Without it, the header decides.
    const header = await get('/feeds/videos.xml', undefined, { 'accept-language': 'de' });
    expect(header.body).toContain('Reelhouse: neueste Videos');
  });

  it('refuse a ?lang= the site does not speak (400), naming the codes', async () => {
    for (const lang of ['it', 'abc', '-1', "' OR 1=1 --", 'x'.repeat(40)]) {
      const res = await get(`/feeds/videos.xml?lang=${encodeURIComponent(lang)}`);
      expect(res.statusCode, lang).toBe(400);
      expect(res.json().message, lang).toContain('lang must be one of en, fr, es, de, pt-BR, ja, ar (or a regional tag of one, such as fr-CA)');
    }
  });

  it('take the closest language: pt-PT gets Brazilian Portuguese, weights are honoured', async () => {
    const pt = await get(`/feeds/channel/${owner.username}.xml`, undefined, { 'accept-language': 'pt-PT' });
    expect(pt.body).toContain(`(@${owner.username}) no Reelhouse`);
    const weighted = await get(`/feeds/channel/${owner.username}.xml`, undefined, { 'accept-language': 'es;q=0.4, ar;q=0.8, zh' });
    expect(weighted.body).toContain(`(@${owner.username}) على Reelhouse`);
  });

  it('stay English, exactly as before, for a language the site does not speak or none asked', async () => {
    for (const headers of [{}, { 'accept-language': 'zh-CN, it;q=0.8' }, { 'accept-language': '*' }]) {
      const res = await get(`/feeds/channel/${owner.username}.xml`, undefined, headers);
      expect(res.body).toContain(`(@${owner.username}) on Reelhouse`);
      expect(res.body).toContain(`<atom:link href="${ORIGIN}/feeds/channel/${owner.username}.xml" rel="self"`);
      expect((await get('/feeds/videos.xml', undefined, headers)).body).toContain('Reelhouse: newest videos');
    }
  });
});
