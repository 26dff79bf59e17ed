import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { freePort, until } from '../../../test/support/rtmp-push.js';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/support/test-app.js';

const API = '/api/v1';

/** What a browser's MediaRecorder makes, made by ffmpeg in real time and written to stdout as it goes. */
const RECORDINGS = {
  // Chromium's usual fallback: VP8 and Opus in WebM (re-encoded to H.264 and AAC by the relay).
  'video/webm;codecs=vp8,opus': [
    ...['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '600k', '-g', '30'],
    ...['-c:a', 'libopus', '-f', 'webm', '-cluster_time_limit', '300'],
  ],
  // Chromium's first choice where it has no MP4 recorder: H.264 and Opus in WebM (Matroska).
  'video/webm;codecs=h264,opus': [
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '30', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'libopus', '-f', 'matroska', '-cluster_time_limit', '300'],
  ],
  // A browser that records H.264 and AAC into fragmented MP4 (the video passed through).
  'video/mp4;codecs=avc1,mp4a': [
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '30', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-f', 'mp4', '-movflags', 'frag_keyframe+empty_moov+default_base_moof', '-frag_duration', '300000'],
  ],
} as const;

function record(type: keyof typeof RECORDINGS, seconds: number): ChildProcess {
  return spawn(
    process.env.FFMPEG_PATH ?? 'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=30:duration=${seconds}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}:sample_rate=48000`],
      ...RECORDINGS[type],
      'pipe:1',
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
}

interface Closed {
  code: number;
  reason: string;
}

/** A WebSocket as a page of the site opens it: the session cookie and the site's Origin. */
function connect(base: string, id: string, as: SignedIn | null, opts: { type?: string; origin?: string } = {}) {
  const url = `${base.replace(/^http/, 'ws')}${API}/live/${id}/publish?type=${encodeURIComponent(opts.type ?? 'video/webm;codecs=vp8,opus')}`;
  const headers: Record<string, string> = { origin: opts.origin ?? base };
  if (as) headers.cookie = `accessToken=${as.accessToken}`;
  const ws = new WebSocket(url, { headers });
  const messages: string[] = [];
  ws.on('message', (data, isBinary) => {
    if (!isBinary) messages.push(data.toString());
  });
  const closed = new Promise<Closed>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, messages, closed, opened };
}

describe('publishing a live from the browser', () => {
  let t: TestApp;
  let base: string;
  let owner: SignedIn;
  const recorders: ChildProcess[] = [];
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    const rtmp = await freePort();
    t = await createTestApp({ env: { LIVE_INGEST: 'in-process', LIVE_RTMP_PORT: String(rtmp), LIVE_RECONNECT_SECONDS: '2' } });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    owner = await t.signUp();
  });
  afterEach(() => {
    for (const r of recorders.splice(0)) r.kill('SIGKILL');
    for (const s of sockets.splice(0)) s.terminate();
  });
  afterAll(() => t.close());

  const makeLive = async () => {
    const res = await t.call({ method: 'POST', url: `${API}/live`, payload: { title: 'From the browser', description: 'x' }, as: owner });
    expect(res.statusCode).toBe(201);
    expect(res.data.ingest.browser).toBe(true);
    return res.data.video._id as string;
  };
  const liveStatus = async (id: string) => (await t.call({ method: 'GET', url: `${API}/videos/${id}`, as: owner })).data.live.status as string;

  /** Sends what the recorder makes over the socket, chunk by chunk, as a page sends each timeslice. */
  const publish = async (id: string, type: keyof typeof RECORDINGS, seconds: number) => {
    const socket = connect(base, id, owner, { type });
    sockets.push(socket.ws);
    await socket.opened;
    const recorder = record(type, seconds);
    recorders.push(recorder);
    let chunks = 0;
    recorder.stdout!.on('data', (chunk: Buffer) => {
      chunks++;
      if (socket.ws.readyState === WebSocket.OPEN) socket.ws.send(chunk);
    });
    return { ...socket, recorder, chunks: () => chunks };
  };

  for (const type of Object.keys(RECORDINGS) as (keyof typeof RECORDINGS)[]) {
    it(`${type}: the live goes on air with a playable ladder; closing the socket is the encoder going away`, async () => {
      const id = await makeLive();
      const p = await publish(id, type, 30);
      await until(
        'on air',
        () => liveStatus(id),
        (s) => s === 'live',
      );
      expect(JSON.parse(p.messages[0]!)).toEqual({ state: 'publishing' });
      const page = await t.call({ method: 'GET', url: `${API}/videos/${id}` });
      const master = await until(
        'the master playlist',
        () => t.call({ method: 'GET', url: page.data.hls.url }),
        (r) => r.statusCode === 200,
        20_000,
      );
      expect(master.body).toMatch(/RESOLUTION=320x240,CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"\nr0\/index\.m3u8/);
      const rung = await t.call({ method: 'GET', url: page.data.hls.url.replace('master.m3u8', 'r0/index.m3u8') });
      const segment = rung.body.split('\n').find((l) => l.endsWith('.m4s'))!;
      const file = await t.call({ method: 'GET', url: page.data.hls.url.replace('master.m3u8', `r0/${segment}`) });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.length).toBeGreaterThan(1000);
      expect(p.chunks()).toBeGreaterThan(3);

      // The page stops: past the reconnect window the live is over, its recording kept for the replay.
      p.ws.close(1000, 'Stopped');
      await until(
        'ended',
        () => liveStatus(id),
        (s) => s === 'ended',
        20_000,
      );
    }, 60_000);
  }

  it('refuses with a close frame the page can show: signed out, another user, a foreign page, an ended live, a busy live', async () => {
    const id = await makeLive();
    const other = await t.signUp();
    const cases: [SignedIn | null, { origin?: string }, number, RegExp][] = [
      [null, {}, 4401, /Sign in to publish/],
      [other, {}, 4403, /Only the owner of this live/],
      [owner, { origin: 'https://elsewhere.example' }, 4403, /Cross-site request refused/],
    ];
    for (const [as, opts, code, reason] of cases) {
      const c = connect(base, id, as, opts);
      const closed = await c.closed;
      expect(closed.code).toBe(code);
      expect(closed.reason).toMatch(reason);
    }
    // A plain request (not a WebSocket) is answered with the status instead.
    expect((await t.call({ method: 'GET', url: `${API}/live/${id}/publish?type=video/webm` })).statusCode).toBe(401);

    const first = await publish(id, 'video/webm;codecs=vp8,opus', 20);
    await until(
      'on air',
      () => liveStatus(id),
      (s) => s === 'live',
    );
    const second = connect(base, id, owner);
    expect(await second.closed).toEqual({ code: 4409, reason: 'This live is already being published from a browser' });
    expect(first.ws.readyState).toBe(WebSocket.OPEN);

    // Ended by its owner: the relay is cut off with a reason, and the live takes nothing more.
    expect((await t.call({ method: 'POST', url: `${API}/live/${id}/end`, as: owner })).statusCode).toBe(200);
    const cut = await first.closed;
    expect(cut.code).toBe(1011);
    expect(cut.reason).toBe('The site stopped taking this stream');
    const late = connect(base, id, owner);
    expect(await late.closed).toEqual({ code: 4409, reason: 'This live has ended' });
  }, 60_000);
});

describe('publishing from the browser with the ingest off', () => {
  it('refuses with 409 and says so; the live answers that the browser cannot publish', async () => {
    const t = await createTestApp();
    try {
      const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const owner = await t.signUp();
      const res = await t.call({ method: 'POST', url: `${API}/live`, payload: { title: 'No ingest', description: 'x' }, as: owner });
      expect(res.data.ingest.browser).toBe(false);
      const c = connect(base, res.data.video._id, owner);
      expect(await c.closed).toEqual({ code: 4409, reason: 'Live ingest is off on this site' });
    } finally {
      await t.close();
    }
  });
});
