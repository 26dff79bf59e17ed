import type { RouteFixture, World } from './types.js';

/** A live of a fresh owner, made through the API, and a way to read its row back. */
async function withLive(w: World) {
  const owner = await w.user();
  const res = await w.call({ method: 'POST', url: '/api/v1/live', payload: { title: 'Fixture live', description: 'On air soon' }, as: owner });
  if (res.statusCode !== 201) throw new Error(`live create failed: ${res.statusCode} ${res.body}`);
  const videoId = res.data.video._id as string;
  const readBack = async () => ({
    live: await w.t.ctx.db.selectFrom('lives').selectAll().where('video_id', '=', videoId).executeTakeFirst(),
    video: await w.t.ctx.db.selectFrom('videos').select(['title', 'description', 'visibility']).where('id', '=', videoId).executeTakeFirst(),
  });
  return { owner, videoId, readBack };
}

export const liveFixtures: Record<string, RouteFixture> = {
  'POST /api/v1/live': {
    access: 'self',
    async valid(w) {
      const u = await w.user();
      const readBack = () => w.t.ctx.db.selectFrom('lives').select('video_id').where('user_id', '=', u.id).execute();
      return {
        as: u,
        status: 201,
        json: { title: 'Fixture live', description: 'Made by the fixture', visibility: 'public', saveReplay: true },
        accepts: { permanent: ['boolean'], saveReplay: ['boolean'] },
        readBack,
      };
    },
  },
  'GET /api/v1/videos/live': {
    access: 'public',
    async valid() {
      return { as: null, status: 200, query: { pageNumber: '1', pageSize: '5' } };
    },
  },
  'GET /api/v1/live/:videoId': {
    access: 'owner',
    adminsToo: true,
    async valid(w) {
      const { owner, videoId } = await withLive(w);
      return { as: owner, status: 200, params: { videoId } };
    },
  },
  'PATCH /api/v1/live/:videoId': {
    access: 'owner',
    async valid(w) {
      const { owner, videoId, readBack } = await withLive(w);
      return { as: owner, status: 200, params: { videoId }, json: { title: 'Renamed live', visibility: 'unlisted' }, readBack };
    },
  },
  'POST /api/v1/live/:videoId/key': {
    access: 'owner',
    adminsToo: true,
    async valid(w) {
      const { owner, videoId, readBack } = await withLive(w);
      return { as: owner, status: 200, params: { videoId }, readBack };
    },
  },
  'POST /api/v1/live/:videoId/end': {
    access: 'owner',
    adminsToo: true,
    async valid(w) {
      const { owner, videoId, readBack } = await withLive(w);
      return { as: owner, status: 200, params: { videoId }, readBack };
    },
  },
  // A WebSocket (a browser publishing); a plain request meets the same checks and is told to upgrade
  // (426), or, where the site runs without the ingest, that it is off (409).
  'GET /api/v1/live/:videoId/publish': {
    access: 'owner',
    async valid(w) {
      const { owner, videoId, readBack } = await withLive(w);
      return { as: owner, status: w.t.services.live.ingest ? 426 : 409, params: { videoId }, query: { type: 'video/webm;codecs=vp8,opus' }, readBack };
    },
  },
};
