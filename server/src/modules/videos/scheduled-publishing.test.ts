import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedVideo } from '../../../test/support/seed.js';
import { createTestApp, multipart, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { createQueue } from '../../jobs/create-queue.js';
import type { JobQueue } from '../../jobs/job-types.js';
import { LocalQueue } from '../../jobs/local-queue.js';
import { ScheduledPublishing } from './scheduled-publishing.js';
import { ScheduledPublishingRepository } from './scheduled-publishing.repository.js';

const API = '/api/v1';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: TestApp;
let owner: SignedIn;
let stranger: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp();
  stranger = await t.signUp();
}, 60_000);
afterAll(() => t.close());

const row = (id: string) => t.ctx.db.selectFrom('videos').select(['visibility', 'publish_at', 'listed', 'watchable']).where('id', '=', id).executeTakeFirst();
const counts = async () => {
  const user = await t.ctx.db.selectFrom('users').select('videos_count').where('id', '=', owner.id).executeTakeFirstOrThrow();
  const site = await t.ctx.db.selectFrom('counters').select('value').where('key', '=', 'public_videos').executeTakeFirstOrThrow();
  return { channel: Number(user.videos_count), site: Number(site.value) };
};
const schedule = async (id: string, at: number) => {
  const res = await t.call({ method: 'PATCH', url: `${API}/videos/${id}`, payload: await multipart({ publishAt: new Date(at).toISOString() }), as: owner });
  expect(res.statusCode).toBe(200);
};
const queuedPublishJobs = async (videoId: string) =>
  (await t.ctx.db.selectFrom('jobs').select(['payload', 'run_at', 'status']).where('name', '=', 'video.publish').execute()).filter(
    (j) => JSON.parse(String(j.payload)).videoId === videoId && j.status === 'queued',
  );

describe('scheduled publishing, with an injected clock', () => {
  it('stays private until its minute, then turns public and the counts follow', async () => {
    const v = await seedVideo(t.ctx, owner.id, { title: 'Platypus premiere' });
    const at = Math.ceil((Date.now() + 2 * 3600_000) / 60_000) * 60_000;
    await schedule(v.id, at);
    const scheduledCounts = await counts();
    let clock = at - 60_000;
    const queue = new LocalQueue({ db: t.ctx.db, dialect: t.ctx.dialect, logger: silent });
    const publishing = new ScheduledPublishing({ videos: new ScheduledPublishingRepository(t.ctx.db), queue, logger: silent, now: () => clock });

    // A minute early (a worker whose clock runs ahead): nothing changes, the job is put back for the time left.
    const queuedBefore = (await queuedPublishJobs(v.id)).length;
    expect(await publishing.publish({ videoId: v.id, publishAt: at })).toBe('early');
    expect(await row(v.id)).toMatchObject({ visibility: 'private', listed: 0, watchable: 0 });
    expect((await queuedPublishJobs(v.id)).length).toBe(queuedBefore + 1);
    expect((await t.call({ method: 'GET', url: `${API}/videos/${v.id}`, as: stranger })).statusCode).toBe(404);

    clock = at;
    expect(await publishing.publish({ videoId: v.id, publishAt: at })).toBe('published');
    expect(await row(v.id)).toEqual({ visibility: 'public', publish_at: null, listed: 1, watchable: 1 });
    expect(await counts()).toEqual({ channel: scheduledCounts.channel + 1, site: scheduledCounts.site + 1 });
    const home = await t.call({ method: 'GET', url: `${API}/videos/?query=Platypus`, as: stranger });
    expect(home.data.videos.map((x: { _id: string }) => x._id)).toEqual([v.id]);
    // Its job running a second time (a retry after a lost acknowledgement) changes nothing.
    expect(await publishing.publish({ videoId: v.id, publishAt: at })).toBe('stale');
    expect(await counts()).toEqual({ channel: scheduledCounts.channel + 1, site: scheduledCounts.site + 1 });
  });

  it("a changed or cancelled schedule leaves the old job nothing to do; a deleted video's job finds no row", async () => {
    const v = await seedVideo(t.ctx, owner.id);
    const first = Date.now() + 3600_000;
    const second = first + 3600_000;
    await schedule(v.id, first);
    await schedule(v.id, second);
    const queue = new LocalQueue({ db: t.ctx.db, dialect: t.ctx.dialect, logger: silent });
    const publishing = new ScheduledPublishing({ videos: new ScheduledPublishingRepository(t.ctx.db), queue, logger: silent, now: () => first });
    expect(await publishing.publish({ videoId: v.id, publishAt: first })).toBe('stale');
    expect(await row(v.id)).toMatchObject({ visibility: 'private', publish_at: second });

    const cancel = await t.call({ method: 'PATCH', url: `${API}/videos/${v.id}`, payload: await multipart({ visibility: 'private' }), as: owner });
    expect(cancel.data).toMatchObject({ visibility: 'private', publishAt: null });
    const later = new ScheduledPublishing({ videos: new ScheduledPublishingRepository(t.ctx.db), queue, logger: silent, now: () => second });
    expect(await later.publish({ videoId: v.id, publishAt: second })).toBe('stale');
    expect(await row(v.id)).toMatchObject({ visibility: 'private' });

    const gone = await seedVideo(t.ctx, owner.id);
    await schedule(gone.id, first);
    expect((await t.call({ method: 'DELETE', url: `${API}/videos/${gone.id}`, as: owner })).statusCode).toBe(200);
    expect(await publishing.publish({ videoId: gone.id, publishAt: first })).toBe('stale');
  });
});

/** The real thing on each adapter: a job delayed by the queue itself publishes the video on time. */
const redisPrefix = `reelhouse-test-publish-${randomBytes(4).toString('hex')}`;
describe.each([
  ['the in-process job table', null],
  ['BullMQ on Redis', redisPrefix],
] as [string, string | null][])('scheduled publishing on %s', (_label, prefix) => {
  let queue: JobQueue;
  beforeAll(() => {
    queue = prefix
      ? createQueue({ redisUrl: REDIS_URL, db: null as never, dialect: 'sqlite', logger: silent, prefix })
      : new LocalQueue({ db: t.ctx.db, dialect: t.ctx.dialect, logger: silent, pollIntervalMs: 50 });
  });
  afterAll(async () => {
    await queue.close();
    if (prefix) {
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    }
  });

  it('turns the video public when its time comes, not before', async () => {
    const v = await seedVideo(t.ctx, owner.id);
    const publishing = new ScheduledPublishing({ videos: new ScheduledPublishingRepository(t.ctx.db), queue, logger: silent });
    await queue.start(publishing.handlers(), { concurrency: 1 });
    const at = Date.now() + 1_500;
    await t.ctx.db.updateTable('videos').set({ visibility: 'private', publish_at: at }).where('id', '=', v.id).execute();
    await publishing.schedule(v.id, at);
    await sleep(1_000);
    expect(await row(v.id)).toMatchObject({ visibility: 'private' });
    let publishedAt = 0;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if ((await row(v.id))?.visibility === 'public') {
        publishedAt = Date.now();
        break;
      }
      await sleep(25);
    }
    expect(publishedAt).toBeGreaterThanOrEqual(at);
    // "To the minute" with plenty to spare: it lands within seconds of its time.
    expect(publishedAt - at).toBeLessThan(5_000);
  }, 30_000);
});
