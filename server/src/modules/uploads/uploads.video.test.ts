import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureFile } from '../../../test/support/fixtures.js';
import { startS3Server, type TestS3Server } from '../../../test/support/s3-server.js';
import { createTestApp, multipart, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { tusCreate, tusPatch } from '../../../test/support/tus-client.js';

const API = '/api/v1';
const FIELDS = { title: 'Dinosaur walk', description: 'A short walk with a dinosaur' };
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Uploads a fixture through tus in one PATCH (or only its first `partial` bytes); returns its id. */
async function uploadThroughTus(base: string, as: SignedIn, fixture: string, partial?: number): Promise<string> {
  const bytes = await fs.readFile(await fixtureFile(fixture));
  const location = (await tusCreate(base, as, bytes.length, path.basename(fixture))).headers.location!;
  const res = await tusPatch(base, as, location, 0, partial ? bytes.subarray(0, partial) : bytes);
  expect(res.status).toBe(204);
  return location.split('/').pop()!;
}

for (const backend of ['local disk', 's3'] as const) {
  describe(`POST /uploads/{id}/video on ${backend}`, () => {
    let s3: TestS3Server | null = null;
    let t: TestApp;
    let base: string;
    let owner: SignedIn;
    let other: SignedIn;

    beforeAll(async () => {
      s3 = backend === 's3' ? await startS3Server() : null;
      t = await createTestApp({ env: s3?.env ?? {} });
      base = await t.app.listen({ port: 0, host: '127.0.0.1' });
      owner = await t.signUp();
      other = await t.signUp();
    }, 60_000);
    afterAll(async () => {
      await t?.close();
      await s3?.stop();
    });

    const makeVideo = async (
      as: SignedIn | undefined,
      id: string,
      fields: Record<string, string> = FIELDS,
      files: Record<string, string> = { thumbnail: 'image.png' },
    ) => t.call({ method: 'POST', url: `${API}/uploads/${id}/video`, as, payload: await multipart(fields, files) });

    it('makes a finished upload a video with the checks and pipeline of POST /videos/, then removes the upload', async () => {
      const id = await uploadThroughTus(base, owner, 'clip.mp4');
      const res = await makeVideo(owner, id);
      expect(res.statusCode).toBe(201);
      expect(res.message).toBe('Video uploaded successfully');
      expect(res.data).toMatchObject({ title: FIELDS.title, description: FIELDS.description, owner: { _id: owner.id } });
      expect(res.data.duration).toBeGreaterThan(1.5);
      expect(res.data.thumbnail.url).toMatch(/thumbnail-.*\.webp$/);
      const row = await t.ctx.db.selectFrom('videos').selectAll().where('id', '=', res.data._id).executeTakeFirstOrThrow();
      const source = await fs.readFile(await fixtureFile('clip.mp4'));
      expect(row.source_bytes).toBe(source.length);
      expect(row.status).toBe('ready');
      // The stored source is the uploaded file, byte for byte.
      const stored = path.join(t.dataDir, 'stored-source.mp4');
      await t.ctx.storage.download(row.source_key ?? row.video_key!, stored);
      expect(sha256(await fs.readFile(stored))).toBe(sha256(source));
      await fs.rm(stored);
      // The upload is gone, and with it its bytes; the same id cannot make a second video.
      expect(await t.ctx.db.selectFrom('uploads').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
      expect(await t.services.uploadStore.state(id)).toBeNull();
      expect((await makeVideo(owner, id)).statusCode).toBe(404);
      expect(await fs.readdir(t.ctx.tmpDir).catch(() => [])).toEqual([]);
    }, 60_000);

    it('needs a signed-in owner', async () => {
      const id = await uploadThroughTus(base, owner, 'clip.mp4');
      const signedOut = await makeVideo(undefined, id);
      expect(signedOut.statusCode).toBe(401);
      expect(signedOut.json()).toMatchObject({ success: false, data: null, message: 'Unauthorized request' });
      const someoneElse = await makeVideo(other, id);
      expect(someoneElse.statusCode).toBe(404);
      expect(someoneElse.message).toBe('Upload not found');
      expect(await t.services.uploadStore.state(id)).not.toBeNull();
    });

    it('answers 404 for a missing upload and 400 for a malformed id', async () => {
      expect((await makeVideo(owner, 'AAAAAAAAAAAAAAAA')).statusCode).toBe(404);
      const bad = await makeVideo(owner, 'not*an*id');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ success: false, data: { errors: [{ path: 'id', message: 'Invalid id' }] } });
    });

    it('keeps the upload after bad fields so the person can try again', async () => {
      const id = await uploadThroughTus(base, owner, 'clip.mp4');
      const noTitle = await makeVideo(owner, id, { description: 'x' });
      expect(noTitle.statusCode).toBe(400);
      expect(noTitle.data.errors.map((e: { path: string }) => e.path)).toEqual(['title']);
      const noThumb = await makeVideo(owner, id, FIELDS, {});
      expect(noThumb.statusCode).toBe(400);
      expect(noThumb.data.errors).toEqual([{ path: 'thumbnail', message: 'thumbnail is required' }]);
      const badThumb = await makeVideo(owner, id, FIELDS, { thumbnail: 'garbage.png' });
      expect(badThumb.statusCode).toBe(422);
      const row = await t.ctx.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.claimed_at).toBeNull();
      expect((await makeVideo(owner, id)).statusCode).toBe(201);
    }, 60_000);

    it('refuses an unfinished upload with 409 and keeps it', async () => {
      const id = await uploadThroughTus(base, owner, 'clip.mp4', 1000);
      const res = await makeVideo(owner, id);
      expect(res.statusCode).toBe(409);
      expect(res.message).toMatch(/^The upload has 1000 of \d+ bytes; send the rest first$/);
      expect(await t.services.uploadStore.state(id)).toMatchObject({ offset: 1000, complete: false });
    });

    it('takes a visibility, a schedule and a frame as the thumbnail, as POST /videos/ does', async () => {
      const unlisted = await makeVideo(
        owner,
        await uploadThroughTus(base, owner, 'clip.mp4'),
        { ...FIELDS, title: 'Wombat unlisted', visibility: 'unlisted', thumbnailTime: '1' },
        {},
      );
      expect(unlisted.statusCode).toBe(201);
      expect(unlisted.data).toMatchObject({ visibility: 'unlisted', publishAt: null, isPublished: true });
      const key = (await t.ctx.db.selectFrom('videos').select('thumbnail_key').where('id', '=', unlisted.data._id).executeTakeFirstOrThrow()).thumbnail_key;
      expect(await sharp(Buffer.concat(await (await t.ctx.storage.read(key)).toArray())).metadata()).toMatchObject({ format: 'webp', width: 320, height: 240 });
      const search = await t.call({ method: 'GET', url: `${API}/videos/?query=Wombat`, as: other });
      expect(search.data.videos).toEqual([]);
      expect((await t.call({ method: 'GET', url: `${API}/videos/${unlisted.data._id}`, as: other })).statusCode).toBe(200);

      const at = new Date(Date.now() + 3600_000).toISOString();
      const scheduled = await makeVideo(owner, await uploadThroughTus(base, owner, 'clip.mp4'), { ...FIELDS, publishAt: at });
      expect(scheduled.statusCode).toBe(201);
      expect(scheduled.data).toMatchObject({ visibility: 'private', publishAt: at, isPublished: false });
      expect((await t.call({ method: 'GET', url: `${API}/videos/${scheduled.data._id}`, as: other })).statusCode).toBe(404);
      expect(await fs.readdir(t.ctx.tmpDir).catch(() => [])).toEqual([]);
    }, 60_000);

    it('refuses bad options with a 400, makes no video and keeps the upload for another try', async () => {
      const id = await uploadThroughTus(base, owner, 'clip.mp4');
      const videosBefore = (await t.ctx.db.selectFrom('videos').select('id').execute()).length;
      const storedBefore = (await t.ctx.storage.list('videos/')).sort();
      const refused: [Record<string, string>, Record<string, string>, string][] = [
        [{ thumbnailTime: '30' }, {}, 'thumbnailTime must be at most 2'],
        [{ thumbnailTime: '1' }, { thumbnail: 'image.png' }, 'Send either a thumbnail image or a thumbnailTime, not both'],
        [{ visibility: 'hidden' }, { thumbnail: 'image.png' }, 'visibility must be one of public, unlisted, private'],
        [{ publishAt: new Date(Date.now() - 1000).toISOString() }, { thumbnail: 'image.png' }, 'publishAt must be in the future'],
        [
          { publishAt: new Date(Date.now() + 3600_000).toISOString(), visibility: 'public' },
          { thumbnail: 'image.png' },
          'A scheduled video is private until its publishAt; leave visibility out or send private',
        ],
      ];
      for (const [fields, files, message] of refused) {
        const res = await makeVideo(owner, id, { ...FIELDS, ...fields }, files);
        expect(res.statusCode).toBe(400);
        expect(res.data.errors.map((e: { message: string }) => e.message)).toEqual([message]);
      }
      expect((await t.ctx.db.selectFrom('videos').select('id').execute()).length).toBe(videosBefore);
      expect((await t.ctx.storage.list('videos/')).sort()).toEqual(storedBefore);
      expect(await fs.readdir(t.ctx.tmpDir).catch(() => [])).toEqual([]);
      const row = await t.ctx.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.claimed_at).toBeNull();
      expect((await makeVideo(owner, id, { ...FIELDS, visibility: 'private', thumbnailTime: '0.5' }, {})).statusCode).toBe(201);
    }, 60_000);

    it('refuses bytes that are not an mp4 video and removes them', async () => {
      const id = await uploadThroughTus(base, owner, 'not-video.mp4');
      const res = await makeVideo(owner, id);
      expect(res.statusCode).toBe(422);
      expect(res.message).toBe('videoFile is not a readable video');
      expect(await t.services.uploadStore.state(id)).toBeNull();
      expect(await t.ctx.db.selectFrom('uploads').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
      const mkv = await uploadThroughTus(base, owner, 'clip.mkv');
      expect((await makeVideo(owner, mkv)).statusCode).toBe(415);
    }, 60_000);
  });
}
