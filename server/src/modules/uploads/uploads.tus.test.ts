import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../../../test/support/s3-server.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { tusCreate, tusOffset, tusPatch, tusRequest } from '../../../test/support/tus-client.js';

const MiB = 1024 * 1024;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The stored bytes of an upload, read back through the store's own backend. */
async function storedBytes(t: TestApp, uploadId: string): Promise<Buffer> {
  const copy = await t.services.uploadStore.localCopy(uploadId, t.ctx.tmpDir);
  try {
    return await fs.readFile(copy.path);
  } finally {
    if (copy.owned) await fs.rm(copy.path, { force: true });
  }
}

/** What the store still holds for an upload: files under DATA_DIR/uploads, or objects in the bucket. */
async function leftovers(t: TestApp, uploadId: string): Promise<string[]> {
  if (t.ctx.storage.kind === 's3') return (await t.ctx.storage.list('uploads/')).filter((k) => k.includes(uploadId));
  return (await fs.readdir(path.join(t.dataDir, 'uploads'))).filter((f) => f.includes(uploadId));
}

for (const backend of ['local disk', 's3'] as const) {
  describe(`tus uploads on ${backend}`, () => {
    let s3: TestS3Server | null = null;
    let t: TestApp;
    let base: string;
    let owner: SignedIn;
    let other: SignedIn;

    beforeAll(async () => {
      s3 = backend === 's3' ? await startS3Server() : null;
      t = await createTestApp({ env: { ...(s3?.env ?? {}), MAX_VIDEO_BYTES: String(64 * MiB) } });
      base = await t.app.listen({ port: 0, host: '127.0.0.1' });
      owner = await t.signUp();
      other = await t.signUp();
    }, 60_000);
    afterAll(async () => {
      await t?.close();
      await s3?.stop();
    });

    it('creates an upload, survives a cut connection, resumes from the offset the server kept, and completes', async () => {
      // Over two S3 parts, so the bucket sees a real multipart upload with an incomplete tail.
      const data = randomBytes(12 * MiB + 12345);
      const created = await tusCreate(base, owner, data.length, 'holiday.mp4');
      expect(created.status).toBe(201);
      const location = created.headers.location!;
      expect(location).toMatch(/^\/api\/v1\/uploads\/[A-Za-z0-9_-]{16}$/);
      expect(created.headers['tus-resumable']).toBe('1.0.0');
      const id = location.split('/').pop()!;
      const row = await t.ctx.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ owner_id: owner.id, size: data.length, filename: 'holiday.mp4', claimed_at: null });

      // The network drops 7 MiB into the first PATCH.
      await tusPatch(base, owner, location, 0, data, 7 * MiB);
      const kept = await tusOffset(base, owner, location);
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThanOrEqual(7 * MiB);

      // A PATCH at the wrong offset is refused; the right one finishes the file.
      expect((await tusPatch(base, owner, location, kept + 1, data.subarray(kept + 1))).status).toBe(409);
      const done = await tusPatch(base, owner, location, kept, data.subarray(kept));
      expect(done.status).toBe(204);
      expect(Number(done.headers['upload-offset'])).toBe(data.length);
      expect(await tusOffset(base, owner, location)).toBe(data.length);
      expect(sha256(await storedBytes(t, id))).toBe(sha256(data));

      // Termination removes the bytes and the row.
      const del = await tusRequest(base, { method: 'DELETE', path: location, as: owner });
      expect(del.status).toBe(204);
      expect(await leftovers(t, id)).toEqual([]);
      expect(await t.ctx.db.selectFrom('uploads').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
      expect((await tusRequest(base, { method: 'HEAD', path: location, as: owner })).status).toBe(404);
    }, 60_000);

    it('refuses signed-out callers and keeps each upload to its owner', async () => {
      expect((await tusCreate(base, undefined, 1000)).status).toBe(401);
      const created = await tusCreate(base, owner, 1000);
      const location = created.headers.location!;
      for (const as of [undefined, other]) {
        const status = as ? 404 : 401;
        expect((await tusRequest(base, { method: 'HEAD', path: location, as })).status).toBe(status);
        expect((await tusPatch(base, as, location, 0, randomBytes(1000))).status).toBe(status);
        expect((await tusRequest(base, { method: 'DELETE', path: location, as })).status).toBe(status);
      }
      const refused = await tusPatch(base, other, location, 0, randomBytes(10));
      expect(JSON.parse(refused.body)).toMatchObject({ statusCode: 404, success: false, data: null, message: 'Upload not found' });
      expect(await tusOffset(base, owner, location)).toBe(0);
    });

    it('checks the announced size when the upload is created', async () => {
      const before = await t.ctx.db.selectFrom('uploads').select('id').execute();
      const tooBig = await tusCreate(base, owner, 64 * MiB + 1);
      expect(tooBig.status).toBe(413);
      expect(JSON.parse(tooBig.body)).toMatchObject({ statusCode: 413, success: false, message: 'videoFile is larger than 64 MiB' });
      const noLength = await tusRequest(base, { method: 'POST', path: '/api/v1/uploads', as: owner, headers: { 'upload-defer-length': '1' } });
      expect(noLength.status).toBe(400);
      expect(JSON.parse(noLength.body).message).toBe('Upload-Length is required: uploads must say their size when they start');
      expect((await tusCreate(base, owner, 0)).status).toBe(400);
      expect((await tusRequest(base, { method: 'POST', path: '/api/v1/uploads', as: owner, headers: { 'upload-length': 'lots' } })).status).toBe(400);
      expect(await t.ctx.db.selectFrom('uploads').select('id').execute()).toEqual(before);
    });

    it('refuses an upload past the quota when it is created, before any byte is sent', async () => {
      const user = await t.signUp();
      await t.ctx.db.updateTable('users').set({ quota_bytes: 3000 }).where('id', '=', user.id).execute();
      expect((await tusCreate(base, user, 2000)).status).toBe(201);
      // The first upload holds its room although none of its bytes has arrived.
      const refused = await tusCreate(base, user, 1001);
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.body)).toMatchObject({
        statusCode: 413,
        success: false,
        data: null,
        message: 'This upload needs 1001 bytes but only 1000 bytes of your 3000-byte storage quota are left',
      });
      await t.ctx.db.updateTable('users').set({ quota_bytes: null, daily_quota_bytes: 2500 }).where('id', '=', user.id).execute();
      const daily = await tusCreate(base, user, 501);
      expect(daily.status).toBe(413);
      expect(JSON.parse(daily.body).message).toBe('This upload needs 501 bytes but only 500 bytes of your 2500-byte daily upload quota are left');
      expect(await t.ctx.db.selectFrom('uploads').select('id').where('owner_id', '=', user.id).execute()).toHaveLength(1);
    });

    it('removes abandoned uploads once they expire, and only those', async () => {
      const abandoned = await tusCreate(base, owner, 6 * MiB);
      const location = abandoned.headers.location!;
      const id = location.split('/').pop()!;
      await tusPatch(base, owner, location, 0, randomBytes(6 * MiB), 3 * MiB);
      expect(await tusOffset(base, owner, location)).toBeGreaterThan(0);
      const fresh = (await tusCreate(base, owner, 100)).headers.location!.split('/').pop()!;
      expect(await leftovers(t, id)).not.toEqual([]);

      await t.ctx.db
        .updateTable('uploads')
        .set({ expires_at: Date.now() - 1 })
        .where('id', '=', id)
        .execute();
      const result = await t.services.housekeeping.run();
      expect(result.expiredUploads).toBe(1);
      expect(await leftovers(t, id)).toEqual([]);
      expect(await t.ctx.db.selectFrom('uploads').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
      expect((await tusRequest(base, { method: 'HEAD', path: location, as: owner })).status).toBe(404);
      expect(await t.ctx.db.selectFrom('uploads').select('id').where('id', '=', fresh).executeTakeFirst()).toBeDefined();
    }, 60_000);

    it('keeps uploads in progress out of the public media route', async () => {
      const location = (await tusCreate(base, owner, 10)).headers.location!;
      await tusPatch(base, owner, location, 0, Buffer.from('0123456789'));
      const id = location.split('/').pop()!;
      const res = await t.call({ method: 'GET', url: `/media/uploads/${id}` });
      expect(res.statusCode).toBe(404);
    });

    it('answers malformed tus requests with the envelope before tus sees them', async () => {
      const location = (await tusCreate(base, owner, 10)).headers.location!;
      const noVersion = await tusRequest(base, {
        method: 'PATCH',
        path: location,
        as: owner,
        headers: { 'tus-resumable': '', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        body: Buffer.from('x'),
      });
      expect(noVersion.status).toBe(412);
      expect(JSON.parse(noVersion.body)).toMatchObject({ statusCode: 412, success: false, message: 'Tus-Resumable: 1.0.0 is required' });
      const wrongType = await tusRequest(base, {
        method: 'PATCH',
        path: location,
        as: owner,
        headers: { 'upload-offset': '0', 'content-type': 'text/plain' },
        body: Buffer.from('x'),
      });
      expect(wrongType.status).toBe(415);
      const noOffset = await tusRequest(base, {
        method: 'PATCH',
        path: location,
        as: owner,
        headers: { 'content-type': 'application/offset+octet-stream' },
        body: Buffer.from('x'),
      });
      expect(noOffset.status).toBe(400);
      expect(JSON.parse(noOffset.body).message).toBe('Upload-Offset must be the byte offset the data starts at');
      expect(await tusOffset(base, owner, location)).toBe(0);
    });
  });
}

describe('tus uploads from a web client on another origin', () => {
  let t: TestApp;
  let base: string;
  let owner: SignedIn;
  const origin = 'https://app.example.com';

  beforeAll(async () => {
    t = await createTestApp({ env: { ALLOWED_ORIGINS: origin } });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    owner = await t.signUp();
  });
  afterAll(() => t?.close());

  it('lets a listed origin read Location and Upload-Offset, and gives others no CORS headers', async () => {
    const created = await tusCreate(base, owner, 10, 'a.mp4', { origin });
    expect(created.status).toBe(201);
    expect(created.headers['access-control-allow-origin']).toBe(origin);
    expect(created.headers['access-control-allow-credentials']).toBe('true');
    expect(String(created.headers['access-control-expose-headers']).toLowerCase()).toContain('location');
    const patched = await tusRequest(base, {
      method: 'PATCH',
      path: created.headers.location!,
      as: owner,
      body: Buffer.from('0123456789'),
      headers: { origin, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    });
    expect(patched.status).toBe(204);
    expect(String(patched.headers['access-control-expose-headers']).toLowerCase()).toContain('upload-offset');
    const stranger = await tusCreate(base, owner, 10, 'a.mp4', { origin: 'https://evil.example' });
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
  });
});
