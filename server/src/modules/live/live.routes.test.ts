import { CreatedLive, LiveDetail, LivePage, VideoDetail } from '@reelhouse/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_ID, seedVideo } from '../../../test/support/seed.js';
import { staffCallers } from '../../../test/support/staff.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { videoPrefix } from '../../storage/storage.js';
import { hashStreamKey } from './live.service.js';

const API = '/api/v1';

describe('live routes', () => {
  let t: TestApp;
  let owner: SignedIn;
  let other: SignedIn;
  let staff: Awaited<ReturnType<typeof staffCallers>>;

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://video.example.com', LIVE_RTMP_PORT: '19350' } });
    owner = await t.signUp();
    other = await t.signUp();
    staff = await staffCallers(t);
  });
  afterAll(() => t.close());

  const create = (as: SignedIn | undefined, payload: Record<string, unknown> = { title: 'Morning show', description: 'Live from the kitchen' }) =>
    t.call({ method: 'POST', url: `${API}/live`, payload, as });
  const made = async (payload?: Record<string, unknown>) => {
    const res = await create(owner, payload);
    expect(res.statusCode, res.body).toBe(201);
    return CreatedLive.parse(res.data);
  };
  const liveRow = (id: string) => t.ctx.db.selectFrom('lives').selectAll().where('video_id', '=', id).executeTakeFirst();

  it('makes a live: a ready video with an upcoming live state, a stream key kept only sealed and hashed, and the ingest address', async () => {
    const res = await create(owner, { title: 'Morning show', description: 'Live from the kitchen', visibility: 'unlisted', saveReplay: false });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ statusCode: 201, success: true, message: 'Live created' });
    const created = CreatedLive.parse(res.data);
    expect(created.ingest).toEqual({ rtmp: 'rtmp://video.example.com:19350/live', browser: false });
    expect(created.streamKey).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(created.video).toMatchObject({ title: 'Morning show', visibility: 'unlisted', status: 'ready', hls: null });
    expect(created.video.live).toEqual({ status: 'upcoming', scheduledStart: null, startedAt: null, endedAt: null, viewers: 0 });
    expect(created.video.thumbnail.url).toMatch(new RegExp(`/media/videos/${created.video._id}/thumbnail-.+\\.webp$`));

    const row = await liveRow(created.video._id);
    expect(row).toMatchObject({ user_id: owner.id, status: 'upcoming', permanent: 0, save_replay: 0, stream_key_hash: hashStreamKey(created.streamKey) });
    expect(row!.stream_key_sealed).not.toContain(created.streamKey);

    // Anyone with the link sees the live state; the key is nowhere in the public answer.
    const page = await t.call({ method: 'GET', url: `${API}/videos/${created.video._id}` });
    expect(page.statusCode).toBe(200);
    expect(VideoDetail.parse(page.data).live?.status).toBe('upcoming');
    expect(page.body).not.toContain(created.streamKey);
  });

  it('takes the defaults and a schedule, and refuses bad input with the envelope, making nothing', async () => {
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const created = await made({ title: 'Later', description: 'Tomorrow', scheduledStart: at, permanent: true });
    expect(created.video.visibility).toBe('public');
    expect(created.video.live?.scheduledStart).toBe(at);
    expect(await liveRow(created.video._id)).toMatchObject({ permanent: 1, save_replay: 1 });

    const before = (await t.ctx.db.selectFrom('lives').select('video_id').execute()).length;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ description: 'x' }, /title is required/],
      [{ title: 'x', description: 'x', visibility: 'secret' }, /visibility must be one of/],
      [{ title: 'x', description: 'x', saveReplay: 'yes' }, /saveReplay must be true or false/],
      [{ title: 'x', description: 'x', scheduledStart: 'soon' }, /scheduledStart must be an ISO 8601/],
      [{ title: 'x', description: 'x', scheduledStart: new Date(Date.now() - 60_000).toISOString() }, /scheduledStart must be in the future/],
      [{ title: 'x'.repeat(101), description: 'x' }, /title must be at most 100/],
    ];
    for (const [payload, message] of cases) {
      const res = await create(owner, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, success: false, data: { errors: expect.any(Array) } });
      expect(res.body).toMatch(message);
    }
    expect((await t.ctx.db.selectFrom('lives').select('video_id').execute()).length).toBe(before);
    expect((await create(undefined)).statusCode).toBe(401);
  });

  it('the owner and admins read the key, the ingest address and the health; others may not', async () => {
    const { video, streamKey } = await made();
    const url = `${API}/live/${video._id}`;
    const mine = await t.call({ method: 'GET', url, as: owner });
    expect(mine.statusCode).toBe(200);
    const detail = LiveDetail.parse(mine.data);
    expect(detail).toMatchObject({ videoId: video._id, status: 'upcoming', streamKey, permanent: false, saveReplay: true });
    expect(detail.health).toEqual({ videoCodec: null, audioCodec: null, width: null, height: null, frameRate: null, bitrate: null, lastDataAt: null });
    expect((await t.call({ method: 'GET', url, as: staff.admin })).data.streamKey).toBe(streamKey);

    expect((await t.call({ method: 'GET', url })).statusCode).toBe(401);
    for (const who of [other, staff.user, staff.moderator]) {
      const res = await t.call({ method: 'GET', url, as: who });
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain(streamKey);
    }
    expect((await t.call({ method: 'GET', url: `${API}/live/${MISSING_ID}`, as: owner })).statusCode).toBe(404);
    // A video that is not a live has no live to manage.
    const vod = await seedVideo(t.ctx, owner.id);
    expect((await t.call({ method: 'GET', url: `${API}/live/${vod.id}`, as: owner })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `${API}/live/not!an!id`, as: owner })).statusCode).toBe(400);
  });

  it("someone else's private live is missing to them", async () => {
    const { video } = await made({ title: 'Private', description: 'Just me', visibility: 'private' });
    for (const [method, path] of [
      ['GET', ''],
      ['POST', '/key'],
      ['POST', '/end'],
    ] as const) {
      expect((await t.call({ method, url: `${API}/live/${video._id}${path}`, as: other })).statusCode, `${method} ${path}`).toBe(404);
    }
    expect((await t.call({ method: 'GET', url: `${API}/videos/${video._id}` })).statusCode).toBe(404);
  });

  it('the owner changes the title, description and visibility; nobody else may', async () => {
    const { video } = await made();
    const url = `${API}/live/${video._id}`;
    const res = await t.call({ method: 'PATCH', url, payload: { title: 'Evening show', visibility: 'private' }, as: owner });
    expect(res.statusCode).toBe(200);
    expect(VideoDetail.parse(res.data)).toMatchObject({ title: 'Evening show', description: 'Live from the kitchen', visibility: 'private' });
    expect(res.data.live.status).toBe('upcoming');

    expect((await t.call({ method: 'PATCH', url, payload: {}, as: owner })).statusCode).toBe(400);
    expect((await t.call({ method: 'PATCH', url, payload: { title: '' }, as: owner })).statusCode).toBe(400);
    expect((await t.call({ method: 'PATCH', url, payload: { title: 'x' } })).statusCode).toBe(401);
    await t.call({ method: 'PATCH', url, payload: { visibility: 'public' }, as: owner });
    for (const who of [other, staff.moderator, staff.admin]) {
      expect((await t.call({ method: 'PATCH', url, payload: { title: 'Mine now' }, as: who })).statusCode).toBe(403);
    }
    expect((await t.call({ method: 'PATCH', url: `${API}/live/${MISSING_ID}`, payload: { title: 'x' }, as: owner })).statusCode).toBe(404);
    const after = await t.call({ method: 'GET', url: `${API}/videos/${video._id}` });
    expect(after.data.title).toBe('Evening show');
  });

  it('a new key replaces the old one at once', async () => {
    const { video, streamKey } = await made();
    const url = `${API}/live/${video._id}/key`;
    expect((await t.call({ method: 'POST', url })).statusCode).toBe(401);
    expect((await t.call({ method: 'POST', url, as: other })).statusCode).toBe(403);
    const res = await t.call({ method: 'POST', url, as: owner });
    expect(res.statusCode).toBe(200);
    const fresh = res.data.streamKey as string;
    expect(fresh).not.toBe(streamKey);
    const row = await liveRow(video._id);
    expect(row!.stream_key_hash).toBe(hashStreamKey(fresh));
    expect((await t.call({ method: 'GET', url: `${API}/live/${video._id}`, as: owner })).data.streamKey).toBe(fresh);
    expect((await t.call({ method: 'POST', url, as: staff.admin })).statusCode).toBe(200);
    expect((await t.call({ method: 'POST', url: `${API}/live/${MISSING_ID}/key`, as: owner })).statusCode).toBe(404);
  });

  it('ending: the owner or an admin ends it once, others may not', async () => {
    const { video } = await made();
    const url = `${API}/live/${video._id}/end`;
    expect((await t.call({ method: 'POST', url })).statusCode).toBe(401);
    expect((await t.call({ method: 'POST', url, as: other })).statusCode).toBe(403);
    expect((await t.call({ method: 'POST', url, as: staff.moderator })).statusCode).toBe(403);
    const res = await t.call({ method: 'POST', url, as: owner });
    expect(res.statusCode).toBe(200);
    expect(res.data.live).toMatchObject({ status: 'ended', endedAt: expect.any(String) });
    const endedAt = res.data.live.endedAt;
    const again = await t.call({ method: 'POST', url, as: staff.admin });
    expect(again.statusCode).toBe(200);
    expect(again.data.live.endedAt).toBe(endedAt);
    expect((await t.call({ method: 'POST', url: `${API}/live/${MISSING_ID}/end`, as: owner })).statusCode).toBe(404);
  });

  it('lists listed lives on air, most viewers first, with paging; upcoming, ended, private and unlisted ones are left out', async () => {
    const first = await made({ title: 'Few watch', description: 'x' });
    const second = await made({ title: 'Many watch', description: 'x' });
    const hidden = await made({ title: 'Unlisted', description: 'x', visibility: 'unlisted' });
    await made({ title: 'Not yet', description: 'x' });
    // The viewer counts would set the numbers below back to the lives' open chat streams (none).
    await t.services.liveChat.viewers.stop();
    const onAir = async (id: string, viewers: number) =>
      t.ctx.db.updateTable('lives').set({ status: 'live', started_at: Date.now(), viewers }).where('video_id', '=', id).execute();
    await onAir(first.video._id, 3);
    await onAir(second.video._id, 40);
    await onAir(hidden.video._id, 99);

    const res = await t.call({ method: 'GET', url: `${API}/videos/live` });
    expect(res.statusCode).toBe(200);
    const page = LivePage.parse(res.data);
    expect(page.videos.map((v) => v.title)).toEqual(['Many watch', 'Few watch']);
    expect(page.videos[0]!.live).toMatchObject({ status: 'live', viewers: 40 });
    expect(page).toMatchObject({ totalDocs: 2, currentPage: 1, totalPages: 1, hasNextPage: false });

    const paged = LivePage.parse((await t.call({ method: 'GET', url: `${API}/videos/live?pageSize=1&pageNumber=2`, as: other })).data);
    expect(paged.videos.map((v) => v.title)).toEqual(['Few watch']);
    expect(paged).toMatchObject({ totalDocs: 2, totalPages: 2, hasPrevPage: true, prevPage: 1 });
    expect((await t.call({ method: 'GET', url: `${API}/videos/live?pageSize=0` })).statusCode).toBe(400);

    // While on air the video's answer points at the live playlist.
    const detail = VideoDetail.parse((await t.call({ method: 'GET', url: `${API}/videos/${first.video._id}` })).data);
    expect(detail.hls?.url).toMatch(new RegExp(`/media/${videoPrefix(first.video._id)}broadcast/master\\.m3u8$`));
    expect(detail.live?.status).toBe('live');
  });

  it('a video that is not a live has no live field', async () => {
    const vod = await seedVideo(t.ctx, owner.id);
    const res = await t.call({ method: 'GET', url: `${API}/videos/${vod.id}` });
    expect(res.statusCode).toBe(200);
    expect('live' in res.data).toBe(false);
  });

  it('the ingest address takes the host the request came to when no public address is set', async () => {
    const bare = await createTestApp();
    try {
      const me = await bare.signUp();
      const res = await bare.call({
        method: 'POST',
        url: `${API}/live`,
        payload: { title: 'x', description: 'y' },
        as: me,
        headers: { host: 'tv.local:7000' },
      });
      expect(res.statusCode).toBe(201);
      expect(res.data.ingest.rtmp).toBe('rtmp://tv.local:1935/live');
    } finally {
      await bare.close();
    }
  });
});
