import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeVideos, seedVideo } from '../../../test/support/seed.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import type { JobMap, JobName, JobQueue } from '../../jobs/job-types.js';
import { utcDay } from '../videos/videos.repository.js';
import { TRENDING_REBUILD_MS, TrendingJobs } from './trending-jobs.js';
import { TrendingRepository } from './trending.repository.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** A queue that only records what was asked of it. */
function recordingQueue() {
  const asked: { name: JobName; payload: JobMap[JobName] }[] = [];
  const queue = {
    enqueue: async (name: JobName, payload: JobMap[JobName]) => {
      asked.push({ name, payload });
    },
  } as unknown as JobQueue;
  return { queue, asked };
}

describe('trending.rebuild', () => {
  it("ranks by the week's activity, does one rebuild per turn, and skips videos gone since", async () => {
    const owner = await t.signUp();
    const [a, b, c] = await Promise.all(['Alpha', 'Bravo', 'Charlie'].map((title) => seedVideo(t.ctx, owner.id, { title })));
    const today = utcDay(Date.now());
    await t.ctx.db
      .insertInto('video_daily_views')
      .values([
        { video_id: a!.id, day: today, views: 5 },
        { video_id: b!.id, day: today, views: 50 },
        { video_id: c!.id, day: today - 1, views: 20 },
      ])
      .execute();
    const repo = new TrendingRepository(t.ctx.db, t.ctx.dialect);
    const jobs = new TrendingJobs({ db: t.ctx.db, dialect: t.ctx.dialect, queue: recordingQueue().queue, logger: quiet });
    // This turn of the schedule: a rebuild now counts as this turn's, and later turns rebuild again.
    const turn = Math.floor(Date.now() / TRENDING_REBUILD_MS);
    expect(await jobs.rebuild({ slot: turn })).toBe('rebuilt');
    expect((await repo.page({ limit: 10, offset: 0 })).ids).toEqual([b!.id, c!.id, a!.id]);

    // Another process's job for the same turn, or a late one for an earlier turn: nothing to do.
    await t.ctx.db
      .insertInto('video_daily_views')
      .values({ video_id: a!.id, day: today - 1, views: 1000 })
      .execute();
    expect(await jobs.rebuild({ slot: turn })).toBe('already');
    expect(await jobs.rebuild({ slot: turn - 3 })).toBe('already');
    expect((await repo.page({ limit: 10, offset: 0 })).ids).toEqual([b!.id, c!.id, a!.id]);

    // The next turn takes the new activity in; a video deleted or unlisted since is skipped when
    // read and left out of the next rebuild.
    expect(await jobs.rebuild({ slot: turn + 1 })).toBe('rebuilt');
    expect((await repo.page({ limit: 10, offset: 0 })).ids).toEqual([a!.id, b!.id, c!.id]);
    // Totals are not counted: a page with more after it answers what the rebuild kept, the last page is exact.
    await changeVideos(t.ctx, [b!.id], { visibility: 'unlisted' });
    expect(await repo.page({ limit: 1, offset: 0 })).toEqual({ ids: [a!.id], total: 3 });
    expect(await repo.page({ limit: 1, offset: 1 })).toEqual({ ids: [c!.id], total: 2 });
    await t.ctx.db.deleteFrom('videos').where('id', '=', b!.id).execute();
    await changeVideos(t.ctx, [c!.id], { visibility: 'private' });
    expect(await repo.page({ limit: 10, offset: 0 })).toEqual({ ids: [a!.id], total: 1 });
    expect(await jobs.rebuild({ slot: turn + 2 })).toBe('rebuilt');
    expect(await repo.page({ limit: 10, offset: 0 })).toEqual({ ids: [a!.id], total: 1 });
    expect(await t.ctx.db.selectFrom('trending_videos').select('video_id').execute()).toEqual([{ video_id: a!.id }]);
    // Pages read by position.
    expect(await repo.page({ limit: 10, offset: 1 })).toEqual({ ids: [], total: 1 });
  });

  it('is asked for at once and then once per turn by a process that runs jobs', async () => {
    const { queue, asked } = recordingQueue();
    const now = 7 * TRENDING_REBUILD_MS + 5;
    const stop = new TrendingJobs({ db: t.ctx.db, dialect: t.ctx.dialect, queue, logger: quiet, now: () => now }).schedule();
    stop();
    expect(asked).toEqual([{ name: 'trending.rebuild', payload: { slot: 7 } }]);
  });
});
