import type { RouteFixture, World } from './types.js';

const settingsRow = (w: World) => () =>
  w.t.ctx.db.selectFrom('settings').selectAll().where('key', '=', 'instance').executeTakeFirst();

/** The site's settings, moderation and admin routes. */
export const adminFixtures: Record<string, RouteFixture> = {
  'GET /api/v1/instance': {
    access: 'public',
    async valid() {
      return { as: null, status: 200 };
    },
  },
  'GET /api/v1/admin/settings': {
    access: 'admin',
    async valid(w) {
      return { as: await w.staff('admin'), status: 200 };
    },
  },
  'PATCH /api/v1/admin/settings': {
    access: 'admin',
    async valid(w) {
      return { as: await w.staff('admin'), status: 200, json: { name: 'Fixture Site', signupMode: 'open' }, readBack: settingsRow(w),
        accepts: {
          description: ['empty string', 'only spaces'],
          maxVideoBytes: ['number'],
          maxVideoDurationSeconds: ['number', 'null'],
        },
      };
    },
  },
};
