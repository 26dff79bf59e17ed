import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EnhancedPublisher, type HevcSource, makeHevcSource, publishHevc } from '../../../test/support/enhanced-rtmp.js';
import { freePort } from '../../../test/support/processes.js';
import { until } from '../../../test/support/rtmp-push.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';
import { runProcess } from '../../media/run-process.js';

const API = '/api/v1';

/** HEVC as OBS 30+ sends it, over enhanced RTMP: it goes on air and viewers get H.264 they can all play. */
describe('a live in HEVC over enhanced RTMP', () => {
  let t: TestApp;
  let owner: SignedIn;
  let dir: string;
  let source: HevcSource;
  let publisher: EnhancedPublisher | null = null;
  let rtmpPort: number;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'live-hevc-'));
    rtmpPort = await freePort();
    [source, t] = await Promise.all([
      makeHevcSource(dir, 12),
      createTestApp({ env: { LIVE_INGEST: 'in-process', LIVE_RTMP_PORT: String(rtmpPort), LIVE_RECONNECT_SECONDS: '2' } }),
    ]);
    owner = await t.signUp();
  }, 120_000);

  afterAll(async () => {
    publisher?.stop();
    await t.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('is on air with its health, and its ladder is H.264 from the top rung down, with audio', { timeout: 120_000 }, async () => {
    const created = await t.call({ method: 'POST', url: `${API}/live`, payload: { title: 'In HEVC', description: 'Enhanced RTMP' }, as: owner });
    expect(created.statusCode).toBe(201);
    const id = created.data.video._id as string;
    publisher = await publishHevc(`rtmp://127.0.0.1:${rtmpPort}/live/${created.data.streamKey}`, source);

    const detail = await until(
      'the health of an HEVC encoder',
      async () => (await t.call({ method: 'GET', url: `${API}/live/${id}`, as: owner })).data,
      (d) => d.status === 'live' && d.health.videoCodec !== null && d.health.bitrate > 0,
      20_000,
    );
    expect(detail.health).toMatchObject({ videoCodec: 'hevc', audioCodec: 'aac', width: 640, height: 360, frameRate: 30 });

    const page = await t.call({ method: 'GET', url: `${API}/videos/${id}` });
    const master = await until(
      'the master playlist',
      () => t.call({ method: 'GET', url: page.data.hls.url }),
      (r) => r.statusCode === 200,
      30_000,
    );
    const rungs = master.body.split('\n').filter((l: string) => l && !l.startsWith('#'));
    expect(rungs).toEqual(['r0/index.m3u8', 'r1/index.m3u8', 'r2/index.m3u8']);
    // No rung is HEVC: the top one is the source encoded again to H.264, at its own size.
    expect(master.body).not.toMatch(/hvc1|hev1/);
    expect(master.body).toMatch(/RESOLUTION=640x360,CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"\nr0\/index\.m3u8/);

    // What a viewer gets plays: the top rung decodes as 360p H.264 with AAC, its timestamps moving on.
    const top = t.ctx.storage.localPath(`videos/${id}/broadcast/r0/index.m3u8`)!;
    await until(
      'a few seconds of the top rung',
      async () => (await fs.readFile(top, 'utf8')).split('#EXTINF').length - 1,
      (n) => n >= 3,
      30_000,
    );
    // A copy of the playlist as it is now, closed, beside it: ffprobe would wait for more of a live one.
    const closed = path.join(path.dirname(top), 'probe.m3u8');
    await fs.writeFile(closed, `${await fs.readFile(top, 'utf8')}#EXT-X-ENDLIST\n`);
    const { stdout } = await runProcess(
      process.env.FFPROBE_PATH ?? 'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_name,height:packet=pts_time', '-of', 'json', closed],
      { captureStdout: true },
    );
    const probed = JSON.parse(stdout) as { streams: { codec_name: string; height?: number }[]; packets: { pts_time?: string }[] };
    expect(probed.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(probed.streams.find((s) => s.codec_name === 'h264')!.height).toBe(360);
    const times = probed.packets.map((p) => Number(p.pts_time)).filter(Number.isFinite);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(2);

    // The end: the recording (HEVC, as it arrived) becomes the replay through the ordinary pipeline.
    publisher.stop();
    const ended = await t.call({ method: 'POST', url: `${API}/live/${id}/end`, as: owner });
    expect(ended.statusCode).toBe(200);
    expect(ended.data.live.status).toBe('ended');
  });
});
