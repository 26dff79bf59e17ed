import type { RouteFixture, World } from './types.js';

const videoRow = (w: World, id: string) => () => w.t.ctx.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirst();

/** A video of a fresh owner, and a way to read it back. */
async function ownedVideo(w: World) {
  const owner = await w.user();
  const id = await w.video(owner);
  return { owner, id, readBack: videoRow(w, id) };
}

export const videosFixtures: Record<string, RouteFixture> = {
  'GET /api/v1/videos/': {
    access: 'public',
    async valid() {
      return { as: null, status: 200, query: { pageNumber: '1', pageSize: '5', sortBy: 'views', sortType: 'asc', query: 'seeded' } };
    },
  },
  'POST /api/v1/videos/': {
    access: 'self',
    multipart: true,
    async valid(w) {
      const owner = await w.user();
      const mine = () => w.t.ctx.db.selectFrom('videos').select(['id', 'title']).where('owner_id', '=', owner.id).execute();
      return {
        as: owner,
        status: 201,
        readBack: mine,
        fields: { title: 'A fixture video', description: 'Uploaded by the route fixture' },
        files: { videoFile: 'clip.mp4', thumbnail: 'image.png' },
      };
    },
  },
  'GET /api/v1/videos/:id': {
    access: 'public',
    async valid(w) {
      const { id } = await ownedVideo(w);
      return { as: null, status: 200, params: { id } };
    },
  },
  'PATCH /api/v1/videos/:id': {
    access: 'owner',
    multipart: true,
    async valid(w) {
      const { owner, id, readBack } = await ownedVideo(w);
      return {
        as: owner,
        status: 200,
        params: { id },
        fields: { title: 'Retitled', description: 'Changed', visibility: 'unlisted' },
        files: { thumbnail: 'image.webp' },
        readBack,
      };
    },
  },
  'GET /api/v1/studio/videos': {
    access: 'self',
    async valid(w) {
      const owner = await w.user();
      await w.video(owner);
      return { as: owner, status: 200, query: { pageNumber: '1', pageSize: '10', sortBy: 'views', sortType: 'desc', status: 'ready', visibility: 'public' } };
    },
  },
  'GET /api/v1/videos/:id/stats': {
    access: 'owner',
    async valid(w) {
      const { owner, id } = await ownedVideo(w);
      return { as: owner, status: 200, params: { id }, query: { days: '28' } };
    },
  },
  'DELETE /api/v1/videos/:id': {
    access: 'owner',
    async valid(w) {
      const { owner, id, readBack } = await ownedVideo(w);
      return { as: owner, status: 200, params: { id }, readBack };
    },
  },
  'PATCH /api/v1/videos/publish/:id': {
    access: 'owner',
    async valid(w) {
      const { owner, id, readBack } = await ownedVideo(w);
      return { as: owner, status: 200, params: { id }, readBack };
    },
  },
  'PATCH /api/v1/videos/increment-views/:id': {
    access: 'public',
    async valid(w) {
      const { id } = await ownedVideo(w);
      return { as: null, status: 200, params: { id } };
    },
  },
  'GET /api/v1/videos/trending': {
    access: 'public',
    async valid() {
      return { as: null, status: 200, query: { pageNumber: '1', pageSize: '5' } };
    },
  },
  'GET /api/v1/videos/:id/related': {
    access: 'public',
    async valid(w) {
      const { id } = await ownedVideo(w);
      return { as: null, status: 200, params: { id }, query: { limit: '5' } };
    },
  },
  'GET /media/*': {
    access: 'public',
    async valid(w) {
      return { as: null, status: 200, params: { '*': await w.media() } };
    },
  },
};
