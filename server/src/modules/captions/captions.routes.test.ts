import { Caption, VideoDetail } from '@reelhouse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeVideos, MISSING_ID, seedVideo } from '../../../test/support/seed.js';
import { startS3Server, type TestS3Server } from '../../../test/support/s3-server.js';
import { signUpAs } from '../../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { videoPrefix } from '../../storage/storage.js';

const API = '/api/v1';
const SRT =
  '1\r\n00:00:00,500 --> 00:00:02,000\r\nHello <b>there</b>\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,250\r\nThe <font color="red">red</font> kite <script>steal(document.cookie)</script>flies\r\n';

function form(fields: Record<string, string>, file?: string | Buffer, filename = 'captions.srt'): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  if (file !== undefined) f.append('file', new File([typeof file === 'string' ? Buffer.from(file) : file], filename, { type: 'application/x-subrip' }));
  return f;
}

function harness(getT: () => TestApp) {
  const upload = (videoId: string, as: SignedIn | undefined, fields: Record<string, string>, file?: string | Buffer) =>
    getT().call({ method: 'POST', url: `${API}/videos/${videoId}/captions`, payload: form(fields, file), as });
  const remove = (videoId: string, captionId: string, as?: SignedIn) =>
    getT().call({ method: 'DELETE', url: `${API}/videos/${videoId}/captions/${captionId}`, as });
  const stored = async (videoId: string) => (await getT().ctx.storage.list(`${videoPrefix(videoId)}captions/`)).sort();
  const rows = (videoId: string) => getT().ctx.db.selectFrom('captions').selectAll().where('video_id', '=', videoId).execute();
  const cues = (videoId: string) =>
    getT().ctx.db.selectFrom('caption_cues').select(['start_ms', 'text']).where('video_id', '=', videoId).orderBy('start_ms').execute();
  return { upload, remove, stored, rows, cues };
}

describe('captions routes', () => {
  let t: TestApp;
  let owner: SignedIn;
  let other: SignedIn;
  const h = harness(() => t);

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.signUp();
    other = await t.signUp();
  });
  afterAll(() => t.close());

  const video = async () => (await seedVideo(t.ctx, owner.id, { duration: 30 })).id;

  it('the owner adds an SRT caption: stored as clean WebVTT, listed on the video, served as text/vtt', async () => {
    const id = await video();
    const res = await h.upload(id, owner, { language: 'en', label: 'English' }, SRT);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ statusCode: 201, success: true, message: 'Caption added' });
    const caption = Caption.parse(res.data);
    expect(caption).toMatchObject({ language: 'en', label: 'English' });
    expect(caption.url).toMatch(new RegExp(`^/media/videos/${id}/captions/.+\\.vtt$`));

    const file = await t.call({ method: 'GET', url: caption.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(file.body).toBe('WEBVTT\n\n00:00:00.500 --> 00:00:02.000\nHello <b>there</b>\n\n00:00:03.000 --> 00:00:04.250\nThe red kite flies\n');

    const page = await t.call({ method: 'GET', url: `${API}/videos/${id}` });
    expect(VideoDetail.parse(page.data).captions).toEqual([caption]);
    expect(await h.cues(id)).toEqual([
      { start_ms: 500, text: 'Hello there' },
      { start_ms: 3000, text: 'The red kite flies' },
    ]);
  });

  it('canonicalises the language, names it when no label is given, and replaces the caption in the same language', async () => {
    const id = await video();
    const first = await h.upload(id, owner, { language: 'pt-br' }, SRT);
    expect(first.statusCode).toBe(201);
    expect(first.data).toMatchObject({ language: 'pt-BR', label: 'Brazilian Portuguese' });
    const firstFiles = await h.stored(id);
    expect(firstFiles).toHaveLength(1);

    const again = await h.upload(id, owner, { language: 'PT-BR', label: 'Português' }, 'WEBVTT\n\n00:01.000 --> 00:02.000\nOutra vez\n');
    expect(again.statusCode).toBe(201);
    expect(again.data._id).not.toBe(first.data._id);
    expect((await h.rows(id)).map((r) => [r.id, r.label])).toEqual([[again.data._id, 'Português']]);
    expect(await h.cues(id)).toEqual([{ start_ms: 1000, text: 'Outra vez' }]);
    const files = await h.stored(id);
    expect(files).toHaveLength(1);
    expect(files).not.toEqual(firstFiles);

    const fr = await h.upload(id, owner, { language: 'fr', label: 'Français' }, SRT);
    expect(fr.statusCode).toBe(201);
    const page = await t.call({ method: 'GET', url: `${API}/videos/${id}`, as: other });
    expect(page.data.captions.map((c: Caption) => c.language)).toEqual(['fr', 'pt-BR']);
  });

  it('refuses bad input with a clear 4xx and the envelope, storing nothing', async () => {
    const id = await video();
    const cases: [Record<string, string>, string | Buffer | undefined, number, RegExp][] = [
      [{ language: 'english!' }, SRT, 400, /language must be a BCP 47 language tag/],
      [{ language: 'xx-' }, SRT, 400, /language must be a BCP 47/],
      [{}, SRT, 400, /language is required/],
      [{ language: 'en', label: 'x'.repeat(51) }, SRT, 400, /label must be at most 50 characters/],
      [{ language: 'en', label: 'two\nlines' }, SRT, 400, /label must be one line/],
      [{ language: 'en' }, undefined, 400, /file is required/],
      [{ language: 'en' }, '', 400, /file is required/],
      [{ language: 'en' }, 'hello, this is not a caption file', 400, /neither WebVTT/],
      [{ language: 'en' }, Buffer.from([0x00, 0x00, 0x00, 0x18, 0x66, 0x74, 0x79, 0x70]), 400, /binary/],
      [{ language: 'en' }, 'WEBVTT\n\nNOTE nothing\n', 400, /no cue/],
      [{ language: 'en' }, 'WEBVTT\n\n00:00.000 --> 00:01.000\n<script>alert(1)</script>\n', 400, /no cue/],
      [{ language: 'en' }, 'WEBVTT\n\n00:05.000 --> 00:06.000\nb\n\n00:01.000 --> 00:02.000\na\n', 400, /time order/],
      [{ language: 'en' }, '1\n00:05:00,000 --> 00:05:01,000\nlate\n', 400, /after the end of the video/],
      [{ language: 'en' }, 'x'.repeat(1024 * 1024 + 1), 413, /larger than 1 MiB/],
      [
        { language: 'en' },
        `WEBVTT\n\n${Array.from({ length: 10_001 }, (_, i) => `00:00:${String(Math.floor(i / 1000)).padStart(2, '0')}.${String(i % 1000).padStart(3, '0')} --> 00:00:59.000\nw`).join('\n\n')}\n`,
        413,
        /more than 10000 cues/,
      ],
    ];
    for (const [fields, file, status, message] of cases) {
      const res = await h.upload(id, owner, fields, file);
      expect(res.statusCode, `${JSON.stringify(fields)} ${String(file).slice(0, 40)}`).toBe(status);
      expect(res.json()).toMatchObject({ statusCode: status, success: false, data: status === 400 ? { errors: expect.any(Array) } : null });
      expect(res.message).toMatch(message);
    }
    expect(await h.rows(id)).toEqual([]);
    expect(await h.stored(id)).toEqual([]);
  });

  it('signed out is 401, another user and a moderator 403, an admin may; a video one cannot see is 404', async () => {
    const id = await video();
    const moderator = await signUpAs(t, 'moderator');
    const admin = await signUpAs(t, 'admin');
    expect((await h.upload(id, undefined, { language: 'en' }, SRT)).statusCode).toBe(401);
    expect((await h.upload(id, other, { language: 'en' }, SRT)).statusCode).toBe(403);
    expect((await h.upload(id, moderator, { language: 'en' }, SRT)).statusCode).toBe(403);
    expect(await h.rows(id)).toEqual([]);
    const byAdmin = await h.upload(id, admin, { language: 'en' }, SRT);
    expect(byAdmin.statusCode).toBe(201);

    expect((await h.remove(id, byAdmin.data._id)).statusCode).toBe(401);
    expect((await h.remove(id, byAdmin.data._id, other)).statusCode).toBe(403);
    expect((await h.remove(id, byAdmin.data._id, moderator)).statusCode).toBe(403);
    expect(await h.rows(id)).toHaveLength(1);

    const hidden = await video();
    await changeVideos(t.ctx, [hidden], { visibility: 'private' });
    expect((await h.upload(hidden, other, { language: 'en' }, SRT)).statusCode).toBe(404);
    expect((await h.upload(MISSING_ID, owner, { language: 'en' }, SRT)).statusCode).toBe(404);
    expect((await h.remove(MISSING_ID, byAdmin.data._id, owner)).statusCode).toBe(404);
    expect((await h.remove(id, 'notAnId!')).statusCode).toBe(400);
  });

  it('the owner or an admin deletes a caption: row, cues and file go; a caption of another video is 404', async () => {
    const id = await video();
    const elsewhere = await video();
    const admin = await signUpAs(t, 'admin');
    const en = (await h.upload(id, owner, { language: 'en' }, SRT)).data;
    const de = (await h.upload(id, owner, { language: 'de' }, SRT)).data;
    expect((await h.remove(elsewhere, en._id, owner)).statusCode).toBe(404);
    expect((await h.remove(id, MISSING_ID, owner)).statusCode).toBe(404);

    const res = await h.remove(id, en._id, owner);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ statusCode: 200, data: {}, message: 'Caption deleted', success: true });
    expect((await h.rows(id)).map((r) => r.id)).toEqual([de._id]);
    expect(await h.stored(id)).toHaveLength(1);
    expect((await h.remove(id, en._id, owner)).statusCode).toBe(404);

    expect((await h.remove(id, de._id, admin)).statusCode).toBe(200);
    expect(await h.rows(id)).toEqual([]);
    expect(await h.cues(id)).toEqual([]);
    expect(await h.stored(id)).toEqual([]);
    expect((await t.call({ method: 'GET', url: de.url })).statusCode).toBe(404);
  });

  it('deleting the video deletes its captions, cues and files', async () => {
    const id = await video();
    await h.upload(id, owner, { language: 'en' }, SRT);
    expect((await t.call({ method: 'DELETE', url: `${API}/videos/${id}`, as: owner })).statusCode).toBe(200);
    expect(await h.rows(id)).toEqual([]);
    expect(await h.cues(id)).toEqual([]);
    expect(await h.stored(id)).toEqual([]);
  });
});

describe('captions on S3 storage', () => {
  let s3: TestS3Server;
  let t: TestApp;
  const h = harness(() => t);

  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp({ env: s3.env });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await s3?.stop();
  });

  it('stores the file in the bucket, replaces it, and removes it with the video', async () => {
    const owner = await t.signUp();
    const id = (await seedVideo(t.ctx, owner.id)).id;
    const first = await h.upload(id, owner, { language: 'en' }, SRT);
    expect(first.statusCode).toBe(201);
    const body = await t.call({ method: 'GET', url: first.data.url });
    expect(body.body).toContain('00:00:03.000 --> 00:00:04.250\nThe red kite flies');
    await h.upload(id, owner, { language: 'en' }, SRT);
    expect(await h.stored(id)).toHaveLength(1);
    expect((await t.call({ method: 'DELETE', url: `${API}/videos/${id}`, as: owner })).statusCode).toBe(200);
    expect(await t.ctx.storage.list(videoPrefix(id))).toEqual([]);
  });
});
