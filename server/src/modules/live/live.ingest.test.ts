import { LiveDetail } from '@reelhouse/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Push, push, until } from '../../../test/support/rtmp-push.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { videoPrefix } from '../../storage/storage.js';

const API = '/api/v1';

describe('live ingest over RTMP', () => {
  let t: TestApp;
  let port: number;
  let owner: SignedIn;
  const pushes: Push[] = [];

  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp({ env: { LIVE_INGEST: 'in-process', LIVE_RTMP_PORT: String(port), LIVE_RECONNECT_SECONDS: '3' } });
    owner = await t.signUp();
  });
  afterEach(() => {
    for (const p of pushes.splice(0)) p.child.kill('SIGKILL');
  });
  afterAll(() => t.close());

  const start = (key: string, seconds: number) => {
    const p = push(port, key, seconds);
    pushes.push(p);
    return p;
  };
  const makeLive = async () => {
    const res = await t.call({ method: 'POST', url: `${API}/live`, payload: { title: 'On air', description: 'A test pattern' }, as: owner });
    expect(res.statusCode).toBe(201);
    return { id: res.data.video._id as string, key: res.data.streamKey as string };
  };
  const detail = async (id: string) => LiveDetail.parse((await t.call({ method: 'GET', url: `${API}/live/${id}`, as: owner })).data);
  const liveRows = () => t.ctx.db.selectFrom('lives').select(['video_id', 'status', 'started_at', 'last_data_at', 'health']).orderBy('video_id').execute();
  const stored = async (id: string) => (await t.ctx.storage.list(videoPrefix(id))).filter((k) => !/\/thumbnail-[^/]+\.webp$/.test(k));

  it('an encoder with the right key puts the live on air, and its stream health is recorded', async () => {
    const { id, key } = await makeLive();
    start(key, 6);
    const onAir = await until(
      'on air',
      () => detail(id),
      (d) => d.status === 'live',
    );
    expect(onAir.startedAt).not.toBeNull();
    const page = await t.call({ method: 'GET', url: `${API}/videos/${id}` });
    expect(page.data.live.status).toBe('live');
    expect(page.data.hls.url).toMatch(/\/broadcast\/master\.m3u8$/);

    const healthy = await until(
      'health',
      () => detail(id),
      (d) => d.health.bitrate !== null && d.health.bitrate > 0 && d.health.width !== null,
    );
    expect(healthy.health).toMatchObject({ videoCodec: 'h264', audioCodec: 'aac', width: 640, height: 360, frameRate: 30 });
    expect(healthy.health.lastDataAt).not.toBeNull();

    const listed = await t.call({ method: 'GET', url: `${API}/videos/live` });
    expect(listed.data.videos.map((v: { _id: string }) => v._id)).toContain(id);

    // The ladder: a master playlist naming three rungs, each naming segments that are stored.
    const master = await until(
      'the master playlist',
      () => t.call({ method: 'GET', url: page.data.hls.url }),
      (r) => r.statusCode === 200,
      15_000,
    );
    const rungs = master.body.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(rungs).toEqual(['r0/index.m3u8', 'r1/index.m3u8', 'r2/index.m3u8']);
    // The passed-through rung carries its measured bandwidth and codecs (ffmpeg's own master has neither).
    expect(master.body).toMatch(/BANDWIDTH=(\d+),AVERAGE-BANDWIDTH=\d+,RESOLUTION=640x360,CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"\nr0\/index\.m3u8/);
    expect(Number(/BANDWIDTH=(\d+)[^\n]*\nr0\//.exec(master.body)![1])).toBeGreaterThan(200_000);
    const base = page.data.hls.url.replace(/master\.m3u8$/, '');
    for (const rung of rungs) {
      const list = await t.call({ method: 'GET', url: base + rung });
      expect(list.statusCode).toBe(200);
      expect(list.headers['content-type']).toMatch(/mpegurl/);
      const names = list.body.split('\n').filter((l) => l && !l.startsWith('#'));
      expect(names.length).toBeGreaterThan(0);
      const init = /URI="([^"]+)"/.exec(list.body)![1]!;
      for (const name of [init, ...names]) {
        const file = await t.call({ method: 'GET', url: base + rung.replace('index.m3u8', name) });
        expect(file.statusCode, name).toBe(200);
        expect(file.rawPayload.length).toBeGreaterThan(0);
      }
    }
  });

  it('a wrong key is refused and nothing changes', async () => {
    const { id } = await makeLive();
    const before = await liveRows();
    const wrong = start('not-a-key-of-any-live-0123456789', 5);
    expect(await wrong.exited).not.toBe(0);
    expect(await liveRows()).toEqual(before);
    expect(await stored(id)).toEqual([]);
  });

  it('a second encoder on a busy key is refused; the first goes on', async () => {
    const { id, key } = await makeLive();
    const first = start(key, 8);
    await until(
      'on air',
      () => detail(id),
      (d) => d.status === 'live',
    );
    const second = start(key, 5);
    expect(await second.exited).not.toBe(0);
    expect(first.child.exitCode).toBeNull();
    expect((await detail(id)).status).toBe('live');
  });

  it('a renewed key cuts the encoder off at once and refuses the old key after', async () => {
    const { id, key } = await makeLive();
    const first = start(key, 10);
    await until(
      'on air',
      () => detail(id),
      (d) => d.status === 'live',
    );
    const renewed = await t.call({ method: 'POST', url: `${API}/live/${id}/key`, as: owner });
    expect(renewed.statusCode).toBe(200);
    expect(await Promise.race([first.exited.then(() => 'cut'), new Promise((r) => setTimeout(() => r('still on'), 5000))])).toBe('cut');
    // The new key publishes to the same live (within the reconnect window): its data is recorded again.
    const seen = (await detail(id)).health.lastDataAt;
    start(renewed.data.streamKey, 6);
    const again = start(key, 5);
    expect(await again.exited).not.toBe(0);
    await until(
      'data from the new key',
      () => detail(id),
      (d) => d.status === 'live' && d.health.lastDataAt !== null && d.health.lastDataAt !== seen,
    );
  });

  it('an encoder back within the reconnect window continues the live; one away longer ends it', async () => {
    const { id, key } = await makeLive();
    const first = start(key, 2);
    const onAir = await until(
      'on air',
      () => detail(id),
      (d) => d.status === 'live',
    );
    await first.exited;
    start(key, 3);
    await new Promise((r) => setTimeout(r, 1500));
    const continued = await detail(id);
    expect(continued.status).toBe('live');
    expect(continued.startedAt).toBe(onAir.startedAt);

    const ended = await until(
      'ended',
      () => detail(id),
      (d) => d.status === 'ended',
      15_000,
    );
    expect(ended.endedAt).not.toBeNull();
    // The broadcast stopped and kept the stream as it arrived, for the replay.
    expect((await stored(id)).some((k) => /\/broadcast\/recording-[a-z0-9]+\.mp4$/.test(k))).toBe(true);
    // An ended live takes no more data.
    const late = start(key, 3);
    expect(await late.exited).not.toBe(0);
    expect((await detail(id)).status).toBe('ended');
  });
});

describe('live ingest, ending', () => {
  let t: TestApp;
  let port: number;
  let owner: SignedIn;

  beforeAll(async () => {
    port = await freePort();
    // The pipeline runs here: the replay goes through it.
    t = await createTestApp({ env: { LIVE_INGEST: 'in-process', LIVE_RTMP_PORT: String(port) }, serveSourceAsIs: false });
    owner = await t.signUp();
  });
  afterAll(() => t.close());

  /** A live on air with a stored segment, its encoder still publishing. */
  const onAir = async (payload: Record<string, unknown>) => {
    const res = await t.call({ method: 'POST', url: `${API}/live`, payload: { title: 'Short show', description: 'x', ...payload }, as: owner });
    const id = res.data.video._id as string;
    const encoder = push(port, res.data.streamKey, 20);
    await until(
      'a stored segment',
      async () => t.ctx.storage.list(`${videoPrefix(id)}broadcast/r0/`),
      (keys) => keys.some((k) => k.endsWith('.m4s')),
      15_000,
    );
    return { id, encoder };
  };

  it('the owner ends a live on air: the encoder is cut, and the recording becomes the replay at the same URL', async () => {
    const { id, encoder } = await onAir({});
    try {
      const ended = await t.call({ method: 'POST', url: `${API}/live/${id}/end`, as: owner });
      expect(ended.statusCode).toBe(200);
      expect(ended.data.live.status).toBe('ended');
      // Handed to the pipeline (whose fast-start copy of a few seconds may already be done).
      expect(['processing', 'ready']).toContain(ended.data.status);
      expect(ended.data.videoFile.url).toMatch(/\.mp4$/);
      expect(await Promise.race([encoder.exited.then(() => 'cut'), new Promise((r) => setTimeout(() => r('still on'), 5000))])).toBe('cut');
      // Only the recording is left of the broadcast: it is the replay's source now (released by the
      // pipeline once the replay is made, which may already be the case).
      const source = (await t.ctx.db.selectFrom('videos').select('source_key').where('id', '=', id).executeTakeFirstOrThrow()).source_key;
      expect(source).toMatch(/\/broadcast\/recording-[a-z0-9]+\.mp4$/);
      const keys = await t.ctx.storage.list(`${videoPrefix(id)}broadcast/`);
      expect(keys.filter((k) => k !== source)).toEqual([]);

      const ready = await until(
        'the replay ready',
        () => t.call({ method: 'GET', url: `${API}/videos/${id}`, as: owner }),
        (r) => r.data.status === 'ready' && r.data.hls !== null,
        90_000,
      );
      expect(ready.data.live.status).toBe('ended');
      expect(ready.data.duration).toBeGreaterThan(0);
      expect(ready.data.hls.url).not.toMatch(/broadcast/);
      const master = await t.call({ method: 'GET', url: ready.data.hls.url });
      expect(master.statusCode).toBe(200);
      expect(master.body).toMatch(/#EXT-X-STREAM-INF/);
      // Anyone with the link watches the replay.
      expect((await t.call({ method: 'GET', url: `${API}/videos/${id}` })).data.status).toBe('ready');
    } finally {
      encoder.child.kill('SIGKILL');
    }
  }, 120_000);

  it('a permanent live makes a new video of each session and waits for the next with the same key', async () => {
    const res = await t.call({ method: 'POST', url: `${API}/live`, payload: { title: 'Every morning', description: 'Daily', permanent: true }, as: owner });
    const id = res.data.video._id as string;
    const key = res.data.streamKey as string;
    const session = async () => {
      const encoder = push(port, key, 20);
      await until(
        'a stored segment',
        async () => t.ctx.storage.list(`${videoPrefix(id)}broadcast/r0/`),
        (keys) => keys.some((k) => k.endsWith('.m4s')),
        15_000,
      );
      return encoder;
    };
    const replays = () =>
      t.ctx.db
        .selectFrom('videos')
        .select(['id', 'title', 'status'])
        .where('owner_id', '=', owner.id)
        .where('title', '=', 'Every morning')
        .where('id', '<>', id)
        .execute();

    const first = await session();
    try {
      const ended = await t.call({ method: 'POST', url: `${API}/live/${id}/end`, as: owner });
      expect(ended.statusCode).toBe(200);
      // The session is over; the live waits for the next one.
      expect(ended.data.live).toMatchObject({ status: 'upcoming', startedAt: null, endedAt: null });
      expect(await t.ctx.storage.list(`${videoPrefix(id)}broadcast/`)).toEqual([]);
      const [replay] = await replays();
      expect(replay).toBeDefined();
      const ready = await until(
        'the session replay ready',
        () => t.call({ method: 'GET', url: `${API}/videos/${replay!.id}`, as: owner }),
        (r) => r.data.status === 'ready' && r.data.hls !== null,
        90_000,
      );
      expect(ready.data.duration).toBeGreaterThan(0);
      expect('live' in ready.data).toBe(false);
    } finally {
      first.child.kill('SIGKILL');
    }

    // The same key goes live again.
    const second = await session();
    try {
      expect((await t.call({ method: 'GET', url: `${API}/videos/${id}` })).data.live.status).toBe('live');
    } finally {
      second.child.kill('SIGKILL');
    }
  }, 150_000);

  it('without saveReplay, ending removes the video and its files', async () => {
    const { id, encoder } = await onAir({ saveReplay: false });
    try {
      const ended = await t.call({ method: 'POST', url: `${API}/live/${id}/end`, as: owner });
      expect(ended.statusCode).toBe(200);
      expect(ended.data.live.status).toBe('ended');
      expect((await t.call({ method: 'GET', url: `${API}/videos/${id}`, as: owner })).statusCode).toBe(404);
      expect(await t.ctx.storage.list(videoPrefix(id))).toEqual([]);
    } finally {
      encoder.child.kill('SIGKILL');
    }
  });
});

describe('live ingest at start', () => {
  it('ends the lives a stopped process left on air, and takes encoders again', async () => {
    const port = await freePort();
    const t = await createTestApp({ env: { LIVE_INGEST: 'in-process', LIVE_RTMP_PORT: String(port) } });
    try {
      const owner = await t.signUp();
      const res = await t.call({ method: 'POST', url: `${API}/live`, payload: { title: 'Left on air', description: 'x' }, as: owner });
      const id = res.data.video._id as string;
      const other = await t.call({ method: 'POST', url: `${API}/live`, payload: { title: 'On another machine', description: 'x' }, as: owner });
      const otherId = other.data.video._id as string;
      // As a process that died mid-live leaves it; and one on air on another machine's ingest.
      await t.ctx.db
        .updateTable('lives')
        .set({ status: 'live', started_at: Date.now() - 60_000 })
        .where('video_id', '=', id)
        .execute();
      await t.ctx.db
        .updateTable('lives')
        .set({ status: 'live', started_at: Date.now() - 60_000, ingest_owner: 'another-host-4242' })
        .where('video_id', '=', otherId)
        .execute();
      const ingest = t.services.live.ingest!.server;
      await ingest.stop();
      await ingest.start();
      const page = await t.call({ method: 'GET', url: `${API}/videos/${id}` });
      expect(page.data.live).toMatchObject({ status: 'ended', endedAt: expect.any(String) });
      expect(page.data.hls).toBeNull();
      expect((await t.call({ method: 'GET', url: `${API}/videos/${otherId}` })).data.live.status).toBe('live');
    } finally {
      await t.close();
    }
  });
});
