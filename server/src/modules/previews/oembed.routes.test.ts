import { Oembed, OembedAnswer } from '@reelhouse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_ID, seedVideo } from '../../../test/support/seed.js';
import { signUpAs } from '../../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { refreshVideoAccess } from '../../db/video-access.js';

const ORIGIN = 'https://video.example.com';

let t: TestApp;
let owner: SignedIn;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: ORIGIN } });
  owner = await t.signUp({ fullName: 'Grace "Amazing" Hopper' });
});
afterAll(() => t.close());

const oembed = (query: Record<string, string>, as?: SignedIn) => t.call({ method: 'GET', url: `/api/v1/oembed?${new URLSearchParams(query)}`, as });
const pageUrl = (id: string) => `${ORIGIN}/video/${id}`;

/** The fields oEmbed 1.0 requires of every answer (2.3.4) and of the video type (2.3.4.4). */
function expectOembedVideo(body: Record<string, unknown>) {
  expect(body.version).toBe('1.0');
  expect(body.type).toBe('video');
  expect(typeof body.html).toBe('string');
  for (const key of ['width', 'height']) expect(Number.isInteger(body[key]) && (body[key] as number) > 0, key).toBe(true);
  // Optional fields, but when one thumbnail field is present all three must be.
  if ('thumbnail_url' in body) for (const key of ['thumbnail_width', 'thumbnail_height']) expect(Number.isInteger(body[key]), key).toBe(true);
  for (const key of ['title', 'author_name', 'author_url', 'provider_name', 'provider_url']) expect(typeof body[key], key).toBe('string');
  expect(Oembed.safeParse(body).success).toBe(true);
}

describe('GET /oembed', () => {
  it('answers oEmbed 1.0 video with an iframe of the embed page, signed out or in', async () => {
    const video = await seedVideo(t.ctx, owner.id, { title: 'A "quoted" <title> & more', width: 1280, height: 720 });
    for (const as of [undefined, owner, await t.signUp()]) {
      const res = await oembed({ url: pageUrl(video.id) }, as);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expectOembedVideo(body);
      expect(OembedAnswer.parse(body)).toEqual(body);
      expect(body).toMatchObject({
        title: 'A "quoted" <title> & more',
        author_name: 'Grace "Amazing" Hopper',
        author_url: `${ORIGIN}/channel/${owner.username}`,
        provider_name: 'Reelhouse',
        provider_url: `${ORIGIN}/`,
        thumbnail_url: `${ORIGIN}/media/videos/${video.id}/thumbnail.webp`,
        thumbnail_width: 1280,
        thumbnail_height: 720,
        width: 640,
        height: 360,
        // The envelope, beside the oEmbed fields, for this API's own clients.
        statusCode: 200,
        success: true,
      });
      expect(body.data.html).toBe(body.html);
      expect(body.html).toBe(
        `<iframe src="${ORIGIN}/embed/${video.id}" width="640" height="360" title="A &quot;quoted&quot; &lt;title&gt; &amp; more" frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen></iframe>`,
      );
    }
  });

  it("fits maxwidth and maxheight keeping the video's shape", async () => {
    const portrait = await seedVideo(t.ctx, owner.id, { width: 720, height: 1280 });
    const wide = await seedVideo(t.ctx, owner.id, { width: 1920, height: 1080 });
    expect((await oembed({ url: pageUrl(portrait.id) })).json()).toMatchObject({ width: 203, height: 360 });
    expect((await oembed({ url: pageUrl(wide.id), maxwidth: '320' })).json()).toMatchObject({ width: 320, height: 180 });
    expect((await oembed({ url: pageUrl(wide.id), maxwidth: '1000', maxheight: '100' })).json()).toMatchObject({ width: 178, height: 100 });
    expect((await oembed({ url: pageUrl(portrait.id), maxheight: '400' })).json()).toMatchObject({ width: 225, height: 400 });
    expect((await oembed({ url: pageUrl(portrait.id), maxwidth: '999', maxheight: '4000' })).json()).toMatchObject({ width: 999, height: 1776 });
  });

  it('takes the embed page URL, http or https, with a trailing slash or a query', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    for (const url of [`${ORIGIN}/embed/${video.id}`, `http://video.example.com/video/${video.id}/`, `${pageUrl(video.id)}?t=42`]) {
      expect((await oembed({ url })).statusCode, url).toBe(200);
    }
  });

  it('answers unlisted videos (their link is shared on purpose)', async () => {
    const video = await seedVideo(t.ctx, owner.id, { visibility: 'unlisted' });
    expect((await oembed({ url: pageUrl(video.id) })).statusCode).toBe(200);
  });

  it('is a 404 for what is not a watchable video of this site: to the owner and staff too', async () => {
    const banned = await t.signUp();
    const ofBanned = await seedVideo(t.ctx, banned.id);
    await t.ctx.db.updateTable('users').set({ banned_at: Date.now() }).where('id', '=', banned.id).execute();
    await refreshVideoAccess(t.ctx.db, { ownerId: banned.id });
    const publicOne = await seedVideo(t.ctx, owner.id);
    const urls = [
      pageUrl((await seedVideo(t.ctx, owner.id, { visibility: 'private' })).id),
      pageUrl((await seedVideo(t.ctx, owner.id, { status: 'processing' })).id),
      pageUrl((await seedVideo(t.ctx, owner.id, { hidden_at: Date.now(), hidden_reason: 'spam' })).id),
      pageUrl(ofBanned.id),
      pageUrl(MISSING_ID),
      `https://elsewhere.example.org/video/${publicOne.id}`,
      `${ORIGIN}/channel/${owner.username}`,
      `${ORIGIN}/video/${publicOne.id}/comments`,
      `${ORIGIN}/`,
    ];
    const admin = await signUpAs(t, 'admin');
    for (const url of urls) {
      for (const as of [undefined, owner, admin]) {
        const res = await oembed({ url }, as);
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toEqual({ statusCode: 404, data: null, message: 'Video not found', success: false });
      }
    }
  });

  it('is a 400 with the envelope for a malformed URL or size, 501 for format=xml', async () => {
    const video = await seedVideo(t.ctx, owner.id);
    for (const query of [
      {},
      { url: 'not a url' },
      { url: 'javascript:alert(1)' },
      { url: `ftp://video.example.com/video/${video.id}` },
      { url: pageUrl(video.id), maxwidth: '-5' },
      { url: pageUrl(video.id), maxheight: 'tall' },
      { url: pageUrl(video.id), format: 'yaml' },
    ]) {
      const res = await oembed(query as Record<string, string>);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().success).toBe(false);
    }
    const xml = await oembed({ url: pageUrl(video.id), format: 'xml' });
    expect(xml.statusCode).toBe(501);
    expect(xml.json()).toEqual({ statusCode: 501, data: null, message: 'Only format=json is offered', success: false });
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await t.call({ method: 'GET', url: '/api/docs/json' })).json();
    expect(doc.paths['/api/v1/oembed']?.get).toBeDefined();
  });
});
