import type { RouteFixture, World } from './types.js';

const rows = (w: World, table: 'comments' | 'likes' | 'subscriptions' | 'playlists' | 'playlist_videos', column: string, value: string) => () =>
  w.t.ctx.db
    .selectFrom(table)
    .selectAll()
    .where(column as never, '=', value as never)
    .execute();

async function commented(w: World) {
  const author = await w.user();
  const videoOwner = await w.user();
  const videoId = await w.video(videoOwner);
  const id = await w.comment(author, videoId);
  return { author, videoOwner, videoId, id, readBack: rows(w, 'comments', 'id', id) };
}

async function withPlaylist(w: World, videos = 1) {
  const owner = await w.user();
  const uploader = await w.user();
  const videoIds: string[] = [];
  for (let i = 0; i < videos; i++) videoIds.push(await w.video(uploader));
  const id = await w.playlist(owner, videoIds);
  const readBack = async () => ({ playlist: await rows(w, 'playlists', 'id', id)(), videos: await rows(w, 'playlist_videos', 'playlist_id', id)() });
  return { owner, uploader, id, videoIds, readBack };
}

const likeToggle = (): RouteFixture => ({
  access: 'self',
  async valid(w) {
    const u = await w.user();
    const contentId = await w.video(await w.user());
    return { as: u, status: 200, params: { contentType: 'video', contentId }, readBack: rows(w, 'likes', 'user_id', u.id) };
  },
});

const playlistCreate = (): RouteFixture => ({
  access: 'self',
  async valid(w) {
    const u = await w.user();
    return { as: u, status: 201, json: { name: 'Fixture list', description: 'Made by the fixture' }, readBack: rows(w, 'playlists', 'owner_id', u.id) };
  },
});

export const socialFixtures: Record<string, RouteFixture> = {
  'GET /api/v1/comments/:videoId': {
    access: 'public',
    async valid(w) {
      const { videoId } = await commented(w);
      return { as: null, status: 200, params: { videoId }, query: { pageNumber: '1', pageSize: '10' } };
    },
  },
  'POST /api/v1/comments/:videoId': {
    access: 'self',
    async valid(w) {
      const u = await w.user();
      const videoId = await w.video(await w.user());
      return { as: u, status: 201, params: { videoId }, json: { content: 'A fixture comment' }, readBack: rows(w, 'comments', 'owner_id', u.id) };
    },
  },
  'PATCH /api/v1/comments/:commentId': {
    access: 'owner',
    async valid(w) {
      const { author, id, readBack } = await commented(w);
      return { as: author, status: 200, params: { commentId: id }, json: { content: 'Edited' }, readBack };
    },
  },
  'DELETE /api/v1/comments/:commentId': {
    access: 'owner',
    async valid(w) {
      const { author, id, readBack } = await commented(w);
      return { as: author, status: 200, params: { commentId: id }, readBack };
    },
  },
  'GET /api/v1/comments/:commentId/replies': {
    access: 'public',
    async valid(w) {
      const { id, videoId } = await commented(w);
      await w.call({ method: 'POST', url: `/api/v1/comments/${videoId}`, payload: { content: 'A reply', parentId: id }, as: await w.user() });
      return { as: null, status: 200, params: { commentId: id }, query: { pageNumber: '1', pageSize: '10' } };
    },
  },
  'PATCH /api/v1/comments/:commentId/pin': {
    access: 'owner',
    async valid(w) {
      const { videoOwner, id, readBack } = await commented(w);
      return { as: videoOwner, status: 200, params: { commentId: id }, readBack };
    },
  },
  'PATCH /api/v1/comments/:commentId/heart': {
    access: 'owner',
    async valid(w) {
      const { videoOwner, id, readBack } = await commented(w);
      return { as: videoOwner, status: 200, params: { commentId: id }, readBack };
    },
  },
  'GET /api/v1/likes/videos': {
    access: 'self',
    async valid(w) {
      return { as: await w.user(), status: 200, query: { pageNumber: '1', pageSize: '10', sortType: 'asc' } };
    },
  },
  'GET /api/v1/likes/count/:contentId': {
    access: 'public',
    async valid(w) {
      const contentId = await w.video(await w.user());
      return { as: null, status: 200, params: { contentId }, query: { contentType: 'video' } };
    },
  },
  'GET /api/v1/likes/:contentId': {
    access: 'public',
    async valid(w) {
      const contentId = await w.video(await w.user());
      return { as: await w.user(), status: 200, params: { contentId }, query: { contentType: 'video' } };
    },
  },
  'POST /api/v1/likes/toggle/:contentType/:contentId': likeToggle(),
  'POST /api/v1/likes/toggle/:contentType/:contentId/': likeToggle(),
  'POST /api/v1/subscriptions/channel/:channelId': {
    access: 'self',
    async valid(w) {
      const u = await w.user();
      const channel = await w.user();
      return { as: u, status: 200, params: { channelId: channel.id }, readBack: rows(w, 'subscriptions', 'subscriber_id', u.id) };
    },
  },
  'GET /api/v1/subscriptions/channel/:channelId': {
    access: 'public',
    async valid(w) {
      const channel = await w.user();
      return { as: await w.user(), status: 200, params: { channelId: channel.id } };
    },
  },
  'GET /api/v1/subscriptions/user/subscriber-count': {
    access: 'self',
    async valid(w) {
      return { as: await w.user(), status: 200 };
    },
  },
  'GET /api/v1/subscriptions/user/channels': {
    access: 'self',
    async valid(w) {
      return { as: await w.user(), status: 200, query: { pageNumber: '1', pageSize: '10' } };
    },
  },
  'GET /api/v1/feed/subscriptions': {
    access: 'self',
    async valid(w) {
      return { as: await w.user(), status: 200, query: { pageNumber: '1', pageSize: '10' } };
    },
  },
  'POST /api/v1/playlist': playlistCreate(),
  'POST /api/v1/playlist/': playlistCreate(),
  'GET /api/v1/playlist/:id': {
    access: 'owner',
    async valid(w) {
      const { owner, id } = await withPlaylist(w);
      return { as: owner, status: 200, params: { id } };
    },
  },
  'PATCH /api/v1/playlist/:id': {
    access: 'owner',
    async valid(w) {
      const { owner, id, readBack } = await withPlaylist(w);
      return { as: owner, status: 200, params: { id }, json: { name: 'Renamed list', visibility: 'public' }, readBack };
    },
  },
  'DELETE /api/v1/playlist/:id': {
    access: 'owner',
    async valid(w) {
      const { owner, id, readBack } = await withPlaylist(w);
      return { as: owner, status: 200, params: { id }, readBack };
    },
  },
  'PATCH /api/v1/playlist/add/:videoId/:playlistId': {
    access: 'owner',
    async valid(w) {
      const { owner, uploader, id, readBack } = await withPlaylist(w, 0);
      const videoId = await w.video(uploader);
      return { as: owner, status: 200, params: { videoId, playlistId: id }, readBack };
    },
  },
  'PATCH /api/v1/playlist/remove/:videoId/:playlistId': {
    access: 'owner',
    async valid(w) {
      const { owner, id, videoIds, readBack } = await withPlaylist(w, 2);
      return { as: owner, status: 200, params: { videoId: videoIds[0]!, playlistId: id }, readBack };
    },
  },
  'GET /api/v1/playlist/user/:userId': {
    access: 'public',
    async valid(w) {
      const { owner } = await withPlaylist(w);
      return { as: null, status: 200, params: { userId: owner.id } };
    },
  },
};
