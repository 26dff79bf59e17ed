import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClipSpec, makeClip } from '../../src/media/fixtures.js';
import { S3Storage } from '../../src/storage/s3-storage.js';
import { fetchEverything, type VideoUrls } from '../support/playback.js';
import { ApiClient, buildServer, type LogLine, type RunningProcess } from '../support/processes.js';
import { openSse } from '../support/sse.js';
import { tusRequest } from '../support/tus-client.js';
import { type ScaledSite, startScaledSite } from './site.js';

const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
const CLIPS = {
  short: { width: 320, height: 240, seconds: 4 },
  // Long enough that its ladder is still encoding when its worker is killed.
  long: { width: 1280, height: 720, seconds: 12 },
  // Every frame a keyframe, so that the file is over one 8 MiB part of the bucket's multipart upload.
  resumable: { width: 640, height: 360, seconds: 10, videoBitrate: '12M', gop: 1 },
} satisfies Record<string, ClipSpec>;
const TUS_PIECE = 3 * 1024 * 1024;

type Video = VideoUrls & { progress: number; visibility: string; failureReason?: string };

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** Polls until the video is ready with its ladder and storyboard, failing at once if it failed. */
async function waitReady(client: ApiClient, id: string, timeoutMs: number): Promise<Video> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.call('GET', `/api/v1/videos/${id}`);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const video = res.json.data as Video;
    expect(video.status, `video ${id}: ${video.failureReason ?? ''}`).not.toBe('failed');
    // Overall progress is worked out just after a step records its output: 100 follows by a moment.
    if (video.status === 'ready' && video.hls && video.storyboard && video.progress === 100) return video;
    if (Date.now() > deadline) throw new Error(`video ${id} not ready within ${timeoutMs / 1000} s: ${JSON.stringify(video)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

/** A one-request upload's form: the fields and the clip at `file`. */
async function uploadForm(fields: Record<string, string>, file: string): Promise<FormData> {
  const f = form(fields);
  f.append('videoFile', new File([await fs.readFile(file)], path.basename(file), { type: 'video/mp4' }));
  return f;
}

const jobLog = (name: string, msg: string, videoId: string) => (l: LogLine) =>
  l.msg === msg && l.name === name && (l.payload as { videoId?: string } | undefined)?.videoId === videoId;

describe('the scaled-out site: two API processes behind nginx, two workers, PostgreSQL, Redis and Ceph S3', () => {
  let site: ScaledSite;
  let clipsDir = '';
  const clip = (name: keyof typeof CLIPS) => path.join(clipsDir, `${name}.mp4`);
  /** The channel that uploads, signed in through nginx. */
  let owner: ApiClient;
  let ownerId = '';
  /** The private video the resumable upload made, which the notification test publishes. */
  let publishable = '';

  beforeAll(async () => {
    clipsDir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-scale-clips-'));
    const started = Date.now();
    await buildServer();
    const ready = await Promise.all([
      startScaledSite(),
      ...Object.entries(CLIPS).map(([name, spec]) => makeClip(FFMPEG, clip(name as keyof typeof CLIPS), spec)),
    ]);
    site = ready[0];
    const t = site.s3.timings;
    console.info(
      `scale-out site up in ${((Date.now() - started) / 1000).toFixed(1)} s; Ceph ${(t.total / 1000).toFixed(1)} s ` +
        `(monitor ${t.mon} ms, OSD ${t.osd} ms, gateway ${t.rgw} ms, user and bucket ${t.bucket} ms)`,
    );
    owner = new ApiClient(site.url);
    await owner.signUp();
    ownerId = (await owner.call('GET', '/api/v1/users/user/current')).json.data._id;
  }, 180_000);

  afterAll(async () => {
    await site?.close();
    if (clipsDir) await fs.rm(clipsDir, { recursive: true, force: true });
  });

  it('a video uploaded through nginx becomes playable, its ladder fetched through nginx from the bucket', async () => {
    const up = await owner.call(
      'POST',
      '/api/v1/videos/',
      await uploadForm({ title: 'Through the proxy', description: 'One request', thumbnailTime: '1' }, clip('short')),
    );
    expect(up.status, JSON.stringify(up.json)).toBe(201);
    const id: string = up.json.data._id;
    const video = await waitReady(owner, id, 90_000);
    // Media URLs are the site's public ones, so a player fetches them through nginx too.
    expect(video.hls!.url.startsWith(`${site.url}/media/`), video.hls!.url).toBe(true);
    const fetched = await fetchEverything(owner, video);

    const storage = new S3Storage({ ...site.s3, forcePathStyle: true, publicBaseUrl: null });
    try {
      const stored = await storage.list(`videos/${id}/`);
      expect(stored).toContain(`videos/${id}/hls/master.m3u8`);
      for (const key of fetched) expect(stored).toContain(key);
    } finally {
      storage.destroy();
    }
    // nginx spread the requests over both API processes.
    for (const api of site.apis) {
      expect(
        api.logs.some((l) => l.msg === 'request completed' && String((l.req as { url?: string })?.url).startsWith(`/api/v1/videos/${id}`)),
        api.name,
      ).toBe(true);
    }
  }, 120_000);

  it('a worker killed with SIGKILL mid-ladder: the other worker takes the job over and the video becomes ready', async () => {
    const up = await owner.call(
      'POST',
      '/api/v1/videos/',
      await uploadForm({ title: 'Interrupted ladder', description: 'Its worker dies', thumbnailTime: '1' }, clip('long')),
    );
    expect(up.status, JSON.stringify(up.json)).toBe(201);
    const id: string = up.json.data._id;

    // Whichever worker took the ladder is the one killed, once ffmpeg has written segments.
    const deadline = Date.now() + 90_000;
    let victim: RunningProcess | undefined;
    while (!(victim = site.workers.find((w) => w.logs.some(jobLog('video.ladder', 'job started', id))))) {
      if (Date.now() > deadline) throw new Error('no worker started the ladder');
      await new Promise((r) => setTimeout(r, 100));
    }
    const workDir = path.join(site.dataDirs.get(victim.name)!, 'work');
    while ((await filesUnder(workDir)).filter((f) => f.endsWith('.m4s')).length < 2) {
      if (Date.now() > deadline) throw new Error('the ladder never wrote a segment');
      await new Promise((r) => setTimeout(r, 100));
    }
    // Job ids are per lane: the ladder's is told by its name too.
    const jobId = victim.logs.find(jobLog('video.ladder', 'job started', id))!.job;
    const ladderDone = (l: LogLine) => l.msg === 'job done' && l.name === 'video.ladder' && l.job === jobId;
    await victim.kill();
    const killedAt = Date.now();
    expect(victim.logs.some(ladderDone), 'the ladder finished before the kill').toBe(false);
    expect((await owner.call('GET', `/api/v1/videos/${id}`)).json.data.hls).toBeNull();

    // The surviving worker finds the job stalled once its lock lapses (30 s) and runs it again.
    const survivor = site.workers.find((w) => w !== victim && w.child.exitCode === null)!;
    await survivor.waitForLog('the ladder taken over', jobLog('video.ladder', 'job started', id), 120_000);
    const retakenAt = Date.now();
    const video = await waitReady(owner, id, 120_000);
    await survivor.waitForLog('the ladder to be done', ladderDone, 10_000);
    console.info(
      `ladder taken over ${((retakenAt - killedAt) / 1000).toFixed(1)} s after the kill; ready ${((Date.now() - retakenAt) / 1000).toFixed(1)} s later`,
    );
    await fetchEverything(owner, video);
    // Back to two workers, as a supervisor would restart the dead one.
    await site.startWorker('worker-3');
  }, 240_000);

  it('a resumable upload whose pieces alternate between the two API processes is made into a video', async () => {
    const bytes = await fs.readFile(clip('resumable'));
    expect(bytes.length).toBeGreaterThan(8 * 1024 * 1024);
    const auth = { authorization: `Bearer ${owner.accessToken}` };
    const [a, b] = site.apiUrls;
    const created = await tusRequest(a, {
      method: 'POST',
      path: '/api/v1/uploads',
      headers: { ...auth, 'upload-length': String(bytes.length), 'upload-metadata': `filename ${Buffer.from('resumable.mp4').toString('base64')}` },
    });
    expect(created.status, created.body).toBe(201);
    const location = new URL(String(created.headers.location), a).pathname;

    let offset = 0;
    for (let i = 0; offset < bytes.length; i++) {
      const [to, other] = i % 2 === 0 ? [a, b] : [b, a];
      const piece = bytes.subarray(offset, offset + TUS_PIECE);
      const res = await tusRequest(to, {
        method: 'PATCH',
        path: location,
        body: piece,
        headers: { ...auth, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      });
      expect(res.status, `PATCH ${i} to ${to}: ${res.body}`).toBe(204);
      offset += piece.length;
      expect(Number(res.headers['upload-offset'])).toBe(offset);
      // The other process sees the same upload where this one left it.
      const head = await tusRequest(other, { method: 'HEAD', path: location, headers: auth });
      expect(head.status).toBe(200);
      expect(Number(head.headers['upload-offset'])).toBe(offset);
    }

    // Private for now: the next test publishes it.
    const made = await new ApiClient(b).call(
      'POST',
      `${location}/video`,
      form({ title: 'Resumed across processes', description: 'Pieces on A and B', thumbnailTime: '1', visibility: 'private' }),
      auth,
    );
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    const id: string = made.json.data._id;
    const video = await waitReady(owner, id, 120_000);
    expect(video.visibility).toBe('private');
    const progressive = await owner.fetchBytes(video.videoFile.url);
    expect(progressive.status).toBe(200);
    await fetchEverything(owner, video);
    publishable = id;
  }, 180_000);

  it("a subscriber's live notifications hear of a video published through the other API process", async () => {
    expect(publishable, 'the resumable upload made a video').not.toBe('');
    const [a, b] = site.apiUrls;
    const subscriber = new ApiClient(site.url);
    await subscriber.signUp();
    const sub = await subscriber.call('POST', `/api/v1/subscriptions/channel/${ownerId}`);
    expect(sub.json.data, JSON.stringify(sub.json)).toBe(true);

    const auth = { authorization: `Bearer ${subscriber.accessToken}` };
    // One stream held by process A itself, one through nginx (to whichever process it picks).
    const direct = await openSse(`${a}/api/v1/notifications/stream`, auth);
    const proxied = await openSse(`${site.url}/api/v1/notifications/stream`, auth);
    try {
      expect([direct.status, proxied.status]).toEqual([200, 200]);
      await direct.next('ready', 5000);
      await proxied.next('ready', 5000);

      const published = await new ApiClient(b).call('PATCH', `/api/v1/videos/${publishable}`, form({ visibility: 'public' }), {
        authorization: `Bearer ${owner.accessToken}`,
      });
      expect(published.status, JSON.stringify(published.json)).toBe(200);
      for (const stream of [direct, proxied]) {
        const event = await stream.next('notification', 5000);
        expect(event.data).toMatchObject({ unreadCount: 1, notification: { kind: 'new_video' } });
        expect(JSON.stringify(event.data)).toContain(publishable);
      }
    } finally {
      direct.close();
      proxied.close();
    }
  }, 60_000);
});
