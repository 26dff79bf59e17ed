import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_ID, seedVideo } from '../../../test/support/seed.js';
import { staffCallers } from '../../../test/support/staff.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';

const API = '/api/v1';
let t: TestApp;
let staff: Awaited<ReturnType<typeof staffCallers>>;
beforeAll(async () => {
  t = await createTestApp();
  staff = await staffCallers(t);
});
afterAll(async () => {
  await t?.close();
});

const admin = (method: 'GET' | 'POST', url: string) => t.call({ method, url: `${API}${url}`, as: staff.admin });
const auditActions = async (targetId: string) =>
  (await t.ctx.db.selectFrom('audit_log').select('action').where('target_id', '=', targetId).orderBy('created_at').execute()).map((a) => a.action);

async function failedJob(videoId: string, name = 'video.ladder', status: 'failed' | 'running' | 'queued' = 'failed', runAt = Date.now()) {
  const now = Date.now();
  const row = await t.ctx.db
    .insertInto('jobs')
    .values({
      name,
      payload: JSON.stringify({ videoId }),
      priority: 3,
      status,
      attempts: status === 'queued' ? 0 : 3,
      max_attempts: 3,
      run_at: runAt,
      locked_by: status === 'running' ? 'elsewhere' : null,
      locked_until: status === 'running' ? now + 60_000 : null,
      last_error: status === 'failed' ? 'ffmpeg exited with code 1' : null,
      fair_key: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return String(row.id);
}

describe('media admin routes refuse everyone but admins', () => {
  it.each([
    ['GET', '/admin/videos'],
    ['POST', `/admin/videos/${MISSING_ID}/retry`],
    ['GET', '/admin/jobs'],
    ['POST', '/admin/jobs/1/retry'],
  ])('%s %s', async (method, url) => {
    const call = (as?: typeof staff.user) => t.call({ method: method as 'GET', url: `${API}${url}`, as });
    expect((await call()).statusCode).toBe(401);
    expect((await call(staff.user)).statusCode).toBe(403);
    const mod = await call(staff.moderator);
    expect(mod.statusCode).toBe(403);
    expect(mod.message).toBe('Only admins may do that');
  });
});

describe('GET /admin/videos', () => {
  it('filters by status (failed with its reason) and title, pages, and shows owner, size and date', async () => {
    const owner = await t.signUp();
    const failed = await seedVideo(t.ctx, owner.id, {
      title: 'Broken holiday clip',
      status: 'failed',
      failure_reason: 'The file has no video track.',
      video_key: null,
      source_key: 'uploads/x.mp4',
      source_bytes: 4321,
      visibility: 'private',
    });
    await seedVideo(t.ctx, owner.id, { title: 'Fine holiday clip', source_bytes: 99 });
    await seedVideo(t.ctx, owner.id, { title: 'Taken down clip', hidden_at: Date.now(), hidden_reason: 'Spam' });
    const res = await admin('GET', '/admin/videos?status=failed');
    expect(res.statusCode).toBe(200);
    expect(res.data.videos).toEqual([
      {
        _id: failed.id,
        title: 'Broken holiday clip',
        status: 'failed',
        progress: 100,
        failureReason: 'The file has no video track.',
        visibility: 'private',
        hidden: false,
        owner: { _id: owner.id, username: owner.username },
        sourceBytes: 4321,
        duration: 12.5,
        canRetry: true,
        createdAt: expect.any(String),
      },
    ]);
    expect((await admin('GET', '/admin/videos?status=hidden')).data.videos.map((v: { title: string }) => v.title)).toEqual(['Taken down clip']);
    const search = await admin('GET', '/admin/videos?query=HOLIDAY&pageSize=1');
    expect(search.data).toMatchObject({ totalDocs: 2, totalPages: 2, hasNextPage: true });
    expect(search.data.videos.map((v: { title: string }) => v.title)).toEqual(['Fine holiday clip']);
    expect((await admin('GET', '/admin/videos?query=%25')).data.videos).toEqual([]);
    const bad = await admin('GET', '/admin/videos?status=broken');
    expect(bad.statusCode).toBe(400);
    expect(bad.message).toContain('status must be one of processing, ready, failed, hidden');
  });
});

describe('POST /admin/videos/:id/retry', () => {
  it('processes a failed video again from its kept upload, in the audit log; 409 for the rest, 404 for none', async () => {
    const owner = await t.signUp();
    const source = 'uploads/retry-me.mp4';
    await t.ctx.storage.put(source, Buffer.from('not really a video'), 'video/mp4');
    const failed = await seedVideo(t.ctx, owner.id, {
      status: 'failed',
      failure_reason: 'The video could not be processed.',
      video_key: null,
      source_key: source,
    });
    const res = await admin('POST', `/admin/videos/${failed.id}/retry`);
    expect(res.statusCode).toBe(200);
    // This app serves a stored upload as it is: processing is over at once.
    expect(res.data).toMatchObject({ _id: failed.id, status: 'ready', failureReason: null, canRetry: false });
    expect(await auditActions(failed.id)).toEqual(['video.retry']);
    const again = await admin('POST', `/admin/videos/${failed.id}/retry`);
    expect(again.statusCode).toBe(409);
    expect(again.message).toBe('Only a video whose processing failed can be retried');
    const gone = await seedVideo(t.ctx, owner.id, { status: 'failed', failure_reason: 'The uploaded file is missing.', video_key: null, source_key: null });
    expect((await admin('POST', `/admin/videos/${gone.id}/retry`)).message).toBe('The uploaded file is gone, so the video cannot be processed again');
    expect((await admin('POST', `/admin/videos/${MISSING_ID}/retry`)).statusCode).toBe(404);
    expect((await admin('POST', '/admin/videos/%20/retry')).statusCode).toBe(400);
  });
});

describe('GET /admin/jobs and POST /admin/jobs/:id/retry', () => {
  it('shows depth per lane, running and failed jobs with the error, and sends a failed one back', async () => {
    const owner = await t.signUp();
    const video = await seedVideo(t.ctx, owner.id, {
      title: 'Ladder broke',
      status: 'failed',
      failure_reason: 'The video could not be processed.',
      source_key: 'uploads/kept.mp4',
    });
    const failed = await failedJob(video.id);
    await failedJob('other', 'video.playable', 'running');
    await failedJob('other', 'video.storyboard', 'queued');
    await failedJob('other', 'video.live', 'queued', Date.now() + 60_000);
    const res = await admin('GET', '/admin/jobs');
    expect(res.statusCode).toBe(200);
    expect(res.data.backend).toBe('database');
    expect(res.data.lanes).toEqual([
      { lane: 'playable', waiting: 0, delayed: 0, running: 1, failed: 0 },
      { lane: 'live', waiting: 0, delayed: 1, running: 0, failed: 0 },
      { lane: 'background', waiting: 1, delayed: 0, running: 0, failed: 1 },
      { lane: 'federation', waiting: 0, delayed: 0, running: 0, failed: 0 },
    ]);
    expect(res.data.running).toMatchObject([{ name: 'video.playable', lane: 'playable', state: 'running', videoId: 'other', videoTitle: null }]);
    expect(res.data.failed).toEqual([
      {
        _id: failed,
        name: 'video.ladder',
        lane: 'background',
        state: 'failed',
        videoId: video.id,
        videoTitle: 'Ladder broke',
        attempts: 3,
        maxAttempts: 3,
        progress: null,
        error: 'ffmpeg exited with code 1',
        updatedAt: expect.any(String),
      },
    ]);

    const retried = await admin('POST', `/admin/jobs/${failed}/retry`);
    expect(retried.statusCode).toBe(200);
    expect(retried.data).toMatchObject({ _id: failed, state: 'waiting', attempts: 0 });
    // The failed video is reopened: its handlers skip failed videos.
    const row = await t.ctx.db.selectFrom('videos').select(['status', 'failure_reason']).where('id', '=', video.id).executeTakeFirstOrThrow();
    expect(row.status).not.toBe('failed');
    expect(await auditActions(video.id)).toEqual(['video.retry']);
    expect(await auditActions(failed)).toEqual(['job.retry']);
    const twice = await admin('POST', `/admin/jobs/${failed}/retry`);
    expect(twice.statusCode).toBe(409);
    expect(twice.message).toBe('Only a job that failed can be retried');
    expect((await admin('POST', '/admin/jobs/987654321/retry')).statusCode).toBe(404);
    expect((await admin('POST', '/admin/jobs/not%20an%20id/retry')).statusCode).toBe(400);
  });
});

describe('with the real pipeline', () => {
  let p: TestApp;
  beforeAll(async () => {
    // Jobs are queued but not run: what is queued is the point here.
    p = await createTestApp({ serveSourceAsIs: false, env: { RUN_JOBS_IN_PROCESS: 'false' } });
  });
  afterAll(async () => {
    await p?.close();
  });

  it('a retried video queues its steps through the job queue and is processing again', async () => {
    const owner = await p.signUp();
    const boss = await staffCallers(p);
    const video = await seedVideo(p.ctx, owner.id, {
      status: 'failed',
      failure_reason: 'The video could not be processed.',
      video_key: null,
      source_key: 'uploads/kept.mp4',
    });
    const res = await p.call({ method: 'POST', url: `${API}/admin/videos/${video.id}/retry`, as: boss.admin });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ status: 'processing', failureReason: null });
    const jobs = await p.ctx.db.selectFrom('jobs').select(['name', 'status']).orderBy('id').execute();
    expect(jobs).toEqual([
      { name: 'video.playable', status: 'queued' },
      { name: 'video.storyboard', status: 'queued' },
      { name: 'video.ladder', status: 'queued' },
    ]);
  });
});
