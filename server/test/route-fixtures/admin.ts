import { seedVideo } from '../support/seed.js';
import type { RouteFixture, World } from './types.js';
import { withTwoFactorOn } from './two-factor.js';

const settingsRow = (w: World) => () => w.t.ctx.db.selectFrom('settings').selectAll().where('key', '=', 'instance').executeTakeFirst();

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
      return {
        as: await w.staff('admin'),
        status: 200,
        json: { name: 'Fixture Site', signupMode: 'open' },
        readBack: settingsRow(w),
        accepts: {
          description: ['empty string', 'only spaces'],
          maxVideoBytes: ['number'],
          maxVideoDurationSeconds: ['number', 'null'],
          defaultQuotaBytes: ['number'],
          defaultDailyQuotaBytes: ['number'],
          demoAccount: ['boolean'],
          passwordSignIn: ['boolean'],
          maxLivesOnAir: ['number'],
          maxLivesOnAirPerUser: ['number'],
          maxLiveMinutes: ['number'],
        },
      };
    },
  },
  'POST /api/v1/reports': {
    access: 'self',
    async valid(w) {
      const video = await w.video(await w.user());
      return {
        as: await w.user(),
        status: 201,
        json: { targetType: 'video', targetId: video, reason: 'spam', note: 'Spam links' },
        accepts: { note: ['empty string', 'only spaces'] },
      };
    },
  },
  'POST /api/v1/videos/:id/appeal': {
    access: 'owner',
    async valid(w) {
      const owner = await w.user();
      const video = await seedVideo(w.t.ctx, owner.id, { hidden_at: Date.now(), hidden_reason: 'Taken down' });
      return { as: owner, status: 201, params: { id: video.id }, json: { text: 'Please look again' } };
    },
  },
  'GET /api/v1/admin/reports': {
    access: 'moderator',
    async valid(w) {
      return { as: await w.staff('moderator'), status: 200, query: { state: 'open' } };
    },
  },
  'PATCH /api/v1/admin/reports/:id': {
    access: 'moderator',
    async valid(w) {
      const video = await w.video(await w.user());
      const filed = await w.call({
        method: 'POST',
        url: '/api/v1/reports',
        as: await w.user(),
        payload: { targetType: 'video', targetId: video, reason: 'spam' },
      });
      if (filed.statusCode !== 201) throw new Error(`report failed: ${filed.statusCode} ${filed.body}`);
      return {
        as: await w.staff('moderator'),
        status: 200,
        params: { id: filed.data._id },
        json: { action: 'dismiss', note: 'Fine' },
        accepts: { note: ['empty string', 'only spaces'] },
        readBack: () => w.t.ctx.db.selectFrom('reports').selectAll().where('id', '=', filed.data._id).executeTakeFirst(),
      };
    },
  },
  'GET /api/v1/admin/audit-log': {
    access: 'moderator',
    async valid(w) {
      return { as: await w.staff('moderator'), status: 200, query: { pageNumber: '1', pageSize: '10' } };
    },
  },
};

adminFixtures['GET /api/v1/admin/users'] = {
  access: 'admin',
  async valid(w) {
    return { as: await w.staff('admin'), status: 200, query: { query: 'user', role: 'user', banned: 'false', pageNumber: '1', pageSize: '10' } };
  },
};
adminFixtures['PATCH /api/v1/admin/users/:id'] = {
  access: 'admin',
  async valid(w) {
    const u = await w.user();
    return {
      as: await w.staff('admin'),
      status: 200,
      params: { id: u.id },
      json: { quotaBytes: 5000000 },
      accepts: { quotaBytes: ['number', 'null'], dailyQuotaBytes: ['number', 'null'], banned: ['boolean'], approved: ['boolean'], liveAllowed: ['boolean'] },
      readBack: () => w.t.ctx.db.selectFrom('users').selectAll().where('id', '=', u.id).executeTakeFirst(),
    };
  },
};
adminFixtures['GET /api/v1/admin/stats'] = {
  access: 'admin',
  async valid(w) {
    return { as: await w.staff('admin'), status: 200 };
  },
};
adminFixtures['GET /api/v1/admin/videos'] = {
  access: 'admin',
  async valid(w) {
    return { as: await w.staff('admin'), status: 200, query: { status: 'failed', query: 'video', pageNumber: '1', pageSize: '10' } };
  },
};
adminFixtures['POST /api/v1/admin/videos/:id/retry'] = {
  access: 'admin',
  async valid(w) {
    const owner = await w.user();
    const video = await seedVideo(w.t.ctx, owner.id, {
      status: 'failed',
      failure_reason: 'The video could not be processed.',
      video_key: null,
      source_key: await w.media(),
    });
    return {
      as: await w.staff('admin'),
      status: 200,
      params: { id: video.id },
      readBack: () => w.t.ctx.db.selectFrom('videos').select(['status', 'failure_reason']).where('id', '=', video.id).executeTakeFirst(),
    };
  },
};
adminFixtures['GET /api/v1/admin/jobs'] = {
  access: 'admin',
  async valid(w) {
    return { as: await w.staff('admin'), status: 200 };
  },
};
adminFixtures['POST /api/v1/admin/jobs/:id/retry'] = {
  access: 'admin',
  async valid(w) {
    const now = Date.now();
    const job = await w.t.ctx.db
      .insertInto('jobs')
      .values({
        name: 'video.storyboard',
        payload: JSON.stringify({ videoId: 'gone-video' }),
        priority: 2,
        status: 'failed',
        attempts: 3,
        max_attempts: 3,
        run_at: now,
        locked_by: null,
        locked_until: null,
        last_error: 'ffmpeg exited with code 1',
        fair_key: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return {
      as: await w.staff('admin'),
      status: 200,
      params: { id: String(job.id) },
      readBack: () => w.t.ctx.db.selectFrom('jobs').select(['status', 'attempts']).where('id', '=', job.id).executeTakeFirst(),
    };
  },
};
adminFixtures['GET /api/v1/admin/backups'] = {
  access: 'admin',
  async valid(w) {
    return { as: await w.staff('admin'), status: 200 };
  },
};
adminFixtures['POST /api/v1/admin/backups'] = {
  access: 'admin',
  async valid(w) {
    return { as: await w.staff('admin'), status: 202 };
  },
};
adminFixtures['DELETE /api/v1/admin/users/:id/2fa'] = {
  access: 'admin',
  async valid(w) {
    const { u } = await withTwoFactorOn(w);
    return {
      as: await w.staff('admin'),
      status: 200,
      params: { id: u.id },
      readBack: () => w.t.ctx.db.selectFrom('two_factor').select(['user_id', 'secret']).where('user_id', '=', u.id).executeTakeFirst(),
    };
  },
};
