import fs from 'node:fs/promises';
import { fixtureFile } from '../support/fixtures.js';
import type { SignedIn } from '../support/test-app.js';
import type { RouteFixture, World } from './types.js';

const TUS = { 'tus-resumable': '1.0.0' };

/** A resumable upload of a fresh owner with `sent` of its `size` bytes, made through the API itself. */
async function ownedUpload(w: World, size = 10, sent = 0): Promise<{ owner: SignedIn; id: string; readBack: () => Promise<unknown> }> {
  const owner = await w.user();
  const created = await w.call({ method: 'POST', url: '/api/v1/uploads', as: owner, headers: { ...TUS, 'upload-length': String(size) } });
  if (created.statusCode !== 201) throw new Error(`upload fixture: ${created.statusCode} ${created.body}`);
  const id = String(created.headers.location).split('/').pop()!;
  if (sent > 0) {
    const bytes = size === sent && size > 1000 ? await fs.readFile(await fixtureFile('clip.mp4')) : Buffer.alloc(sent, 7);
    const res = await w.call({
      method: 'PATCH',
      url: `/api/v1/uploads/${id}`,
      as: owner,
      payload: bytes,
      headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    });
    if (res.statusCode !== 204) throw new Error(`upload fixture PATCH: ${res.statusCode} ${res.body}`);
  }
  const readBack = async () => ({
    row: await w.t.ctx.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst(),
    state: await w.t.services.uploadStore.state(id),
  });
  return { owner, id, readBack };
}

export const uploadsFixtures: Record<string, RouteFixture> = {
  // tus discovery: anyone may ask, with no Tus-Resumable.
  'OPTIONS /api/v1/uploads': {
    access: 'public',
    async valid() {
      return { as: null, status: 204 };
    },
  },
  'OPTIONS /api/v1/uploads/:id': {
    access: 'public',
    async valid(w) {
      const { id, readBack } = await ownedUpload(w);
      return { as: null, status: 204, params: { id }, readBack };
    },
  },
  'POST /api/v1/uploads': {
    access: 'self',
    async valid(w) {
      const owner = await w.user();
      const mine = () => w.t.ctx.db.selectFrom('uploads').select(['id', 'size']).where('owner_id', '=', owner.id).execute();
      return { as: owner, status: 201, headers: { ...TUS, 'upload-length': '1000' }, readBack: mine };
    },
  },
  'HEAD /api/v1/uploads/:id': {
    access: 'owner',
    async valid(w) {
      const { owner, id, readBack } = await ownedUpload(w);
      return { as: owner, status: 200, params: { id }, headers: TUS, readBack };
    },
  },
  'PATCH /api/v1/uploads/:id': {
    access: 'owner',
    async valid(w) {
      const { owner, id, readBack } = await ownedUpload(w);
      return {
        as: owner,
        status: 204,
        params: { id },
        readBack,
        body: '0123456789',
        headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      };
    },
  },
  'DELETE /api/v1/uploads/:id': {
    access: 'owner',
    async valid(w) {
      const { owner, id, readBack } = await ownedUpload(w);
      return { as: owner, status: 204, params: { id }, headers: TUS, readBack };
    },
  },
  'GET /api/v1/uploads/quota': {
    access: 'self',
    async valid(w) {
      return { as: await w.user(), status: 200 };
    },
  },
  'POST /api/v1/uploads/:id/video': {
    access: 'owner',
    multipart: true,
    async valid(w) {
      const size = (await fs.stat(await fixtureFile('clip.mp4'))).size;
      const { owner, id, readBack } = await ownedUpload(w, size, size);
      return {
        as: owner,
        status: 201,
        params: { id },
        readBack,
        fields: { title: 'From a resumable upload', description: 'Made by the route fixture' },
        files: { thumbnail: 'image.png' },
      };
    },
  },
};
