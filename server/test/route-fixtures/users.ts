import type { RouteFixture, World } from './types.js';

const userRow = (w: World, id: string) => () => w.t.ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
const sessionRows = (w: World, userId: string) => () => w.t.ctx.db.selectFrom('sessions').selectAll().where('user_id', '=', userId).orderBy('id').execute();

/** The account signed in once more: a second device, with its session id. */
async function secondDevice(w: World, u: { email: string; password: string; id: string }) {
  const login = await w.call({ method: 'POST', url: '/api/v1/users/login', payload: { email: u.email, password: u.password } });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
  const row = await w.t.ctx.db
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', u.id)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const usersFixtures: Record<string, RouteFixture> = {
  'POST /api/v1/users/register': {
    access: 'public',
    multipart: true,
    async valid() {
      const n = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
      return {
        as: null,
        status: 201,
        fields: { username: `fx${n}`, email: `fx${n}@example.com`, password: 'correct-horse-1', fullName: 'Fixture Person' },
        files: { avatar: 'image.png' },
      };
    },
  },
  'POST /api/v1/users/login': {
    access: 'public',
    async valid(w) {
      const u = await w.user();
      return { as: null, status: 200, json: { email: u.email, password: u.password } };
    },
  },
  'POST /api/v1/users/refresh-token': {
    access: 'public',
    async valid(w) {
      const u = await w.user();
      return { as: null, status: 200, json: { refreshToken: u.refreshToken } };
    },
  },
  'POST /api/v1/users/logout': {
    access: 'public',
    async valid(w) {
      return { as: await w.user(), status: 200 };
    },
  },
  'GET /api/v1/users/user/current': {
    access: 'self',
    async valid(w) {
      return { as: await w.user(), status: 200 };
    },
  },
  'PATCH /api/v1/users/update-account': {
    access: 'self',
    async valid(w) {
      const u = await w.user();
      return { as: u, status: 200, json: { fullName: 'Renamed Person' }, blankIgnored: ['username', 'fullName', 'email'], readBack: userRow(w, u.id) };
    },
  },
  'PATCH /api/v1/users/change-avatar': {
    access: 'self',
    multipart: true,
    async valid(w) {
      const u = await w.user();
      return { as: u, status: 200, files: { avatar: 'image.png' }, readBack: userRow(w, u.id) };
    },
  },
  'PATCH /api/v1/users/change-cover-image': {
    access: 'self',
    multipart: true,
    async valid(w) {
      const u = await w.user();
      return { as: u, status: 200, files: { coverImage: 'image.jpg' }, readBack: userRow(w, u.id) };
    },
  },
  'PATCH /api/v1/users/change-password': {
    access: 'self',
    async valid(w) {
      const u = await w.user();
      return { as: u, status: 200, json: { oldPassword: u.password, newPassword: 'another-horse-2' }, readBack: userRow(w, u.id) };
    },
  },
  'PATCH /api/v1/users/language': {
    access: 'self',
    async valid(w) {
      const u = await w.user();
      // null is a valid value: it forgets the choice.
      return { as: u, status: 200, json: { language: 'fr' }, accepts: { language: ['null'] }, readBack: userRow(w, u.id) };
    },
  },
  'DELETE /api/v1/users/delete-account': {
    access: 'self',
    async valid(w) {
      const u = await w.user();
      return { as: u, status: 200, readBack: userRow(w, u.id) };
    },
  },
  'GET /api/v1/users/sessions': {
    access: 'self',
    async valid(w) {
      return { as: await w.user(), status: 200 };
    },
  },
  'DELETE /api/v1/users/sessions/:sessionId': {
    access: 'owner',
    async valid(w) {
      const u = await w.user();
      const sessionId = await secondDevice(w, u);
      return { as: u, status: 200, params: { sessionId }, readBack: sessionRows(w, u.id) };
    },
  },
  'DELETE /api/v1/users/sessions': {
    access: 'self',
    async valid(w) {
      const u = await w.user();
      await secondDevice(w, u);
      return { as: u, status: 200, readBack: sessionRows(w, u.id) };
    },
  },
  'GET /api/v1/users/channel/:channelName': {
    access: 'public',
    async valid(w) {
      const u = await w.user();
      return { as: null, status: 200, params: { channelName: u.username } };
    },
  },
  'PATCH /api/v1/users/watch-history/:videoId': {
    access: 'self',
    async valid(w) {
      const u = await w.user();
      const videoId = await w.video(await w.user());
      const history = () => w.t.ctx.db.selectFrom('watch_history').selectAll().where('user_id', '=', u.id).execute();
      return { as: u, status: 200, params: { videoId }, json: { position: 3 }, accepts: { position: ['number'] }, emptyBodyAccepted: true, readBack: history };
    },
  },
  'GET /api/v1/users/watch-history/': {
    access: 'self',
    async valid(w) {
      return { as: await w.user(), status: 200, query: { pageNumber: '1', pageSize: '10' } };
    },
  },
};
