import type { RouteFixture, World } from './types.js';

/** A live of a fresh owner, made through the API, with a way to read its chat's rows back. */
async function chatOfLive(w: World) {
  const owner = await w.user();
  const res = await w.call({ method: 'POST', url: '/api/v1/live', payload: { title: 'Chat fixture live', description: 'On air soon' }, as: owner });
  if (res.statusCode !== 201) throw new Error(`live create failed: ${res.statusCode} ${res.body}`);
  const videoId = res.data.video._id as string;
  const readBack = async () => ({
    messages: await w.t.ctx.db.selectFrom('live_chat_messages').selectAll().where('video_id', '=', videoId).orderBy('id').execute(),
    bans: await w.t.ctx.db.selectFrom('live_chat_bans').selectAll().where('video_id', '=', videoId).orderBy('user_id').execute(),
  });
  return { owner, videoId, readBack };
}

/** A message of a fresh viewer in that chat. */
async function chatMessage(w: World) {
  const live = await chatOfLive(w);
  const author = await w.user();
  const res = await w.call({ method: 'POST', url: `/api/v1/live/${live.videoId}/chat`, payload: { content: 'Hello from the fixture' }, as: author });
  if (res.statusCode !== 201) throw new Error(`chat message failed: ${res.statusCode} ${res.body}`);
  return { ...live, author, messageId: res.data._id as string };
}

export const liveChatFixtures: Record<string, RouteFixture> = {
  'GET /api/v1/live/:videoId/chat': {
    access: 'public',
    async valid(w) {
      const { videoId } = await chatMessage(w);
      return { as: null, status: 200, params: { videoId } };
    },
  },
  'GET /api/v1/live/:videoId/chat/stream': {
    access: 'public',
    async valid(w) {
      const { videoId } = await chatOfLive(w);
      return { as: null, status: 200, params: { videoId } };
    },
  },
  'POST /api/v1/live/:videoId/chat': {
    access: 'self',
    async valid(w) {
      const { videoId, readBack } = await chatOfLive(w);
      return { as: await w.user(), status: 201, params: { videoId }, json: { content: 'Hello, live' }, readBack };
    },
  },
  'DELETE /api/v1/live/:videoId/chat/:messageId': {
    access: 'owner',
    staffToo: true,
    async valid(w) {
      const { videoId, messageId, author, readBack } = await chatMessage(w);
      return { as: author, status: 200, params: { videoId, messageId }, readBack };
    },
  },
  'POST /api/v1/live/:videoId/chat/bans': {
    access: 'owner',
    staffToo: true,
    async valid(w) {
      const { videoId, owner, readBack } = await chatOfLive(w);
      const viewer = await w.user();
      return { as: owner, status: 201, params: { videoId }, json: { userId: viewer.id, seconds: 600 }, accepts: { seconds: ['number'] }, readBack };
    },
  },
};
