import type { RouteFixture, World } from './types.js';

/** A user with one unread notification (a comment on their video). */
async function notified(w: World) {
  const u = await w.user();
  const videoId = await w.video(u);
  await w.comment(await w.user(), videoId);
  const readBack = () => w.t.ctx.db.selectFrom('notifications').selectAll().where('user_id', '=', u.id).execute();
  return { u, readBack };
}

export const notificationsFixtures: Record<string, RouteFixture> = {
  'GET /api/v1/notifications': {
    access: 'self',
    async valid(w) {
      const { u } = await notified(w);
      return { as: u, status: 200, query: { pageNumber: '1', pageSize: '10' } };
    },
  },
  'GET /api/v1/notifications/unread-count': {
    access: 'self',
    async valid(w) {
      return { as: await w.user(), status: 200 };
    },
  },
  'PATCH /api/v1/notifications/read': {
    access: 'self',
    async valid(w) {
      const { u, readBack } = await notified(w);
      const [row] = await readBack();
      return { as: u, status: 200, json: { ids: [row!.id] }, readBack };
    },
  },
  'GET /api/v1/notifications/stream': {
    access: 'self',
    async valid(w) {
      return { as: await w.user(), status: 200 };
    },
  },
};
