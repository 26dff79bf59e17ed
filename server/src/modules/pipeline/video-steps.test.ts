import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDatabase, testDialect } from '../../../test/support/databases.js';
import { openDatabase, type DbHandle } from '../../db/client.js';
import { makeClip } from '../../media/fixtures.js';
import { parseMediaPlaylist } from '../../media/hls.js';
import { MediaTools } from '../../media/media-tools.js';
import { isBrowserPlayable, probeMedia } from '../../media/probe.js';
import { startS3Server } from '../../../test/support/s3-server.js';
import { LocalStorage } from '../../storage/local-storage.js';
import { S3Storage } from '../../storage/s3-storage.js';
import type { Storage } from '../../storage/storage.js';
import type { JobContext } from '../../jobs/job-types.js';
import { LocalQueue } from '../../jobs/local-queue.js';
import { VideoPipeline } from './video-pipeline.js';
import { FAILURE_REASONS } from './video-step-runner.js';
import { VideoSteps } from './video-steps.js';
import { videoMediaKeys } from './video-media.keys.js';
import { VideoMediaRepository } from './video-media.repository.js';
import { progressReporter } from './video-progress.js';

const ffmpegPath = process.env.FFMPEG_PATH ?? 'ffmpeg';
const ffprobePath = process.env.FFPROBE_PATH ?? 'ffprobe';
const tools = new MediaTools({ ffmpegPath, ffprobePath });
const logger = pino({ level: 'silent' });

let dir: string;
let handle: DbHandle;
let dropPg: (() => Promise<void>) | null = null;
/** The storage the helpers below use; one test swaps in object storage. */
let storage: Storage;
let jobs: VideoSteps;
let ownerId: string;
const clips: Record<string, string> = {};

function context(overrides: Partial<JobContext> = {}): JobContext & { reported: number[] } {
  const reported: number[] = [];
  return {
    attempt: 1,
    signal: new AbortController().signal,
    progress: async (p) => {
      reported.push(p);
    },
    reported,
    ...overrides,
  };
}

/** Stores a source and a thumbnail and creates its row the way the upload route does. */
async function ingest(clip: string): Promise<string> {
  const id = randomUUID();
  const sourceKey = videoMediaKeys(id).source;
  await storage.putFile(sourceKey, clip);
  await storage.put(thumbnailKey(id), Buffer.from('RIFF....WEBP'), 'image/webp');
  const now = Date.now();
  await handle.db
    .insertInto('videos')
    .values({
      id,
      owner_id: ownerId,
      title: 'Clip',
      description: '',
      owner_text: 'owner Owner',
      duration: 0,
      views: 0,
      status: 'processing',
      progress: 0,
      failure_reason: null,
      visibility: 'public',
      publish_at: null,
      hidden_at: null,
      hidden_reason: null,
      listed: 0,
      watchable: 0,
      width: null,
      height: null,
      source_key: sourceKey,
      video_key: null,
      hls_key: null,
      storyboard_key: null,
      thumbnail_key: thumbnailKey(id),
      source_bytes: 0,
      likes_count: 0,
      comments_count: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

const thumbnailKey = (id: string) => `${videoMediaKeys(id).root}thumbnail.webp`;

const video = (id: string) => handle.db.selectFrom('videos').selectAll().where('id', '=', id).executeTakeFirst();

async function readText(key: string) {
  const stream = await storage.read(key);
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Every playlist the master names, and every init segment and segment they name, is in storage. */
async function checkLadder(masterKey: string) {
  const base = masterKey.slice(0, masterKey.lastIndexOf('/') + 1);
  const master = await readText(masterKey);
  const variants = master.split('\n').filter((l) => l && !l.startsWith('#'));
  const infos = master.split('\n').filter((l) => l.startsWith('#EXT-X-STREAM-INF:'));
  expect(variants.length).toBe(infos.length);
  let totalSegments = 0;
  for (const uri of variants) {
    const playlistKey = base + uri;
    const playlist = parseMediaPlaylist(await readText(playlistKey));
    const dirKey = playlistKey.slice(0, playlistKey.lastIndexOf('/') + 1);
    expect(playlist.ended).toBe(true);
    expect(playlist.initUri).toBeTruthy();
    expect(await storage.stat(dirKey + playlist.initUri)).not.toBeNull();
    expect(playlist.targetDuration).toBeLessThanOrEqual(5);
    for (const s of playlist.segments) {
      expect(await storage.stat(dirKey + s.uri), `${dirKey}${s.uri}`).not.toBeNull();
      expect(s.duration).toBeLessThanOrEqual(4.5);
      totalSegments++;
    }
  }
  expect(totalSegments).toBeGreaterThan(0);
  return { master, infos, variants };
}

async function checkStoryboard(vttKey: string) {
  const base = vttKey.slice(0, vttKey.lastIndexOf('/') + 1);
  const vtt = await readText(vttKey);
  expect(vtt.startsWith('WEBVTT')).toBe(true);
  const refs = [...vtt.matchAll(/^(sprite-\d+\.jpg)#xywh=(\d+),(\d+),(\d+),(\d+)$/gm)];
  expect(refs.length).toBeGreaterThan(0);
  for (const r of refs) expect(await storage.stat(base + r[1])).not.toBeNull();
  return refs;
}

/** Total bytes stored under a prefix. */
async function bytesUnder(prefix: string) {
  let total = 0;
  for (const key of await storage.list(prefix)) total += (await storage.stat(key))!.size;
  return total;
}

/** After processing only what players fetch is kept: play.mp4, the ladder, the storyboard, the thumbnail. */
function expectOnlyOutputs(id: string, stored: string[]) {
  const keys = videoMediaKeys(id);
  const other = stored.filter((k) => k !== keys.playable && k !== thumbnailKey(id) && !k.startsWith(keys.hlsPrefix) && !k.startsWith(keys.storyboardPrefix));
  expect(other).toEqual([]);
  expect(stored).toContain(keys.playable);
  expect(stored).toContain(keys.hlsMaster);
  expect(stored).toContain(keys.storyboardVtt);
  expect(stored).toContain(thumbnailKey(id));
}

/** A fast-start file has its moov box before its mdat box. */
async function moovFirst(file: string) {
  const buf = await fs.readFile(file);
  return buf.indexOf('moov') < buf.indexOf('mdat');
}

/** What the jobs told their listener (notifications), in order. */
const told: string[] = [];

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'video-jobs-'));
  // SQLite by default; TEST_DB=postgres runs the same jobs against a fresh PostgreSQL database.
  if (testDialect === 'postgres') {
    const pgDb = await createPgDatabase();
    dropPg = pgDb.drop;
    handle = await openDatabase({ database: { kind: 'postgres', url: pgDb.url } });
  } else {
    handle = await openDatabase({ database: { kind: 'sqlite', file: path.join(dir, 'db.sqlite') } });
  }
  storage = new LocalStorage(path.join(dir, 'media'));
  jobs = new VideoSteps({ db: handle.db, storage, media: tools, logger, workDir: path.join(dir, 'work'), maxAttempts: 2, events: {
    videoReady: async (id) => void told.push(`ready:${id}`),
    videoFailed: async (id) => void told.push(`failed:${id}`),
  } });
  ownerId = randomUUID();
  await handle.db
    .insertInto('users')
    .values({ id: ownerId, username: 'owner', email: 'owner@example.com', full_name: 'Owner', password_hash: 'x', avatar_key: null, cover_key: null, is_demo: 0, subscribers_count: 0, videos_count: 0, created_at: Date.now(), updated_at: Date.now() })
    .execute();
  const c = (name: string) => path.join(dir, name);
  clips.h264 = await makeClip(ffmpegPath, c('h264.mp4'), { width: 1280, height: 720, seconds: 5, fps: 30 });
  clips.hevc = await makeClip(ffmpegPath, c('hevc.mp4'), { width: 640, height: 360, seconds: 3, videoCodec: 'libx265' });
  clips.silent = await makeClip(ffmpegPath, c('silent.mp4'), { width: 640, height: 360, seconds: 3, audioCodec: null });
  clips.portrait = await makeClip(ffmpegPath, c('portrait.mp4'), { width: 720, height: 1280, seconds: 2, fps: 24 });
  clips.corrupt = c('corrupt.mp4');
  const good = await fs.readFile(clips.silent);
  // A real mp4 header followed by noise: it looks like a video until something tries to read it.
  await fs.writeFile(clips.corrupt, Buffer.concat([good.subarray(0, 32), Buffer.alloc(20_000, 0x5a)]));
}, 120_000);

afterAll(async () => {
  await handle?.close();
  await dropPg?.();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('video jobs', () => {
  it('makes an H.264/AAC upload playable by remuxing, then a storyboard, then the ladder', async () => {
    const id = await ingest(clips.h264!);
    const keys = videoMediaKeys(id);

    const ctx = context();
    await jobs.playable({ videoId: id }, ctx);
    let row = await video(id);
    expect(row).toMatchObject({ status: 'ready', video_key: keys.playable, width: 1280, height: 720, hls_key: null, storyboard_key: null, failure_reason: null });
    expect(row!.duration).toBeGreaterThan(4.9);
    expect(row!.duration).toBeLessThan(5.2);
    expect(row!.progress).toBe(30);
    // The owner's channel now counts it.
    const owner = await handle.db.selectFrom('users').select('videos_count').where('id', '=', ownerId).executeTakeFirstOrThrow();
    expect(owner.videos_count).toBeGreaterThanOrEqual(1);
    expect(ctx.reported.at(-1)).toBe(100);
    expect(told).toContain(`ready:${id}`);
    const play = storage.localPath(keys.playable)!;
    const playProbe = await probeMedia(play, { tools });
    expect(isBrowserPlayable(playProbe)).toBe(true);
    expect(await moovFirst(play)).toBe(true);
    // A remux, not a transcode: the video stream is the source's, bit for bit.
    const srcProbe = await probeMedia(clips.h264!, { tools });
    expect(playProbe.video!.bitRate).toBe(srcProbe.video!.bitRate);

    await jobs.storyboard({ videoId: id }, context());
    row = await video(id);
    expect(row!.storyboard_key).toBe(keys.storyboardVtt);
    expect(row!.progress).toBe(40);
    // The ladder still needs the source.
    expect(row!.source_key).toBe(keys.source);
    expect(await storage.stat(keys.source)).not.toBeNull();
    const tiles = await checkStoryboard(keys.storyboardVtt);
    expect(tiles.length).toBe(5);
    expect(tiles[1]!.slice(2).map(Number)).toEqual([160, 0, 160, 90]);
    // Five one-second tiles on one sheet five tiles wide.
    const sheet = await probeMedia(storage.localPath(`${keys.storyboardPrefix}sprite-0.jpg`)!, { tools });
    expect(sheet.video).toMatchObject({ width: 800, height: 90 });

    const sourceBytes = (await storage.stat(keys.source))!.size;
    const bytesBefore = await bytesUnder(keys.root);
    await jobs.ladder({ videoId: id }, context());
    row = await video(id);
    expect(row).toMatchObject({ status: 'ready', hls_key: keys.hlsMaster, progress: 100, source_key: null });
    // The last step to finish removed the original: the video is no longer stored twice.
    expect(await storage.stat(keys.source)).toBeNull();
    const stored = await storage.list(keys.root);
    expectOnlyOutputs(id, stored);
    expect(await bytesUnder(keys.root)).toBe(bytesBefore + (await bytesUnder(keys.hlsPrefix)) - sourceBytes);
    const { infos, variants } = await checkLadder(keys.hlsMaster);
    expect(variants).toEqual(['240p/index.m3u8', '360p/index.m3u8', '480p/index.m3u8', '720p/index.m3u8']);
    expect(infos.map((l) => /RESOLUTION=(\d+x\d+)/.exec(l)![1])).toEqual(['426x240', '640x360', '854x480', '1280x720']);
    for (const l of infos) expect(l).toMatch(/CODECS="avc1\.64[0-9a-f]{4},mp4a\.40\.2"/);
    // ffmpeg itself can read the published ladder back, end to end.
    const hls = await probeMedia(storage.localPath(keys.hlsMaster)!, { tools });
    expect(hls.duration).toBeGreaterThan(4.5);

    // Running any finished step again changes nothing, although the source is gone.
    const rowBefore = await video(id);
    for (const job of [jobs.playable, jobs.storyboard, jobs.ladder]) await job({ videoId: id }, context());
    expect(await storage.list(keys.root)).toEqual(stored);
    expect(await video(id)).toEqual(rowBefore);
  });

  it('keeps the original with KEEP_ORIGINAL_UPLOADS, and a later re-run without it removes the original once', async () => {
    const keeping = new VideoSteps({ db: handle.db, storage, media: tools, logger, workDir: path.join(dir, 'work'), maxAttempts: 2, keepOriginalUploads: true });
    const id = await ingest(clips.silent!);
    const keys = videoMediaKeys(id);
    for (const job of [keeping.playable, keeping.storyboard, keeping.ladder]) await job({ videoId: id }, context());
    expect(await video(id)).toMatchObject({ status: 'ready', progress: 100, source_key: keys.source });
    expect(await storage.stat(keys.source)).not.toBeNull();
    for (const job of [keeping.playable, keeping.storyboard, keeping.ladder]) await job({ videoId: id }, context());
    expect(await storage.stat(keys.source)).not.toBeNull();

    // Three finished jobs releasing the same source at the same moment: one deletes, none fails.
    await Promise.all([jobs.playable, jobs.storyboard, jobs.ladder].map((job) => job({ videoId: id }, context())));
    expect((await video(id))!.source_key).toBeNull();
    expectOnlyOutputs(id, await storage.list(keys.root));
  });

  it('lets the storyboard and the ladder finish together, and the source goes once both are done', async () => {
    const id = await ingest(clips.silent!);
    const keys = videoMediaKeys(id);
    await jobs.playable({ videoId: id }, context());
    expect(await storage.stat(keys.source)).not.toBeNull();
    await Promise.all([jobs.storyboard({ videoId: id }, context()), jobs.ladder({ videoId: id }, context())]);
    expect(await video(id)).toMatchObject({ status: 'ready', progress: 100, source_key: null });
    expectOnlyOutputs(id, await storage.list(keys.root));
  });

  it('counts a step that finished while another ran in the overall progress at once', async () => {
    const id = await ingest(clips.silent!);
    const repo = new VideoMediaRepository(handle.db);
    // The ladder starts with nothing done; the playable file is made while it runs.
    const report = progressReporter((await repo.find(id))!, 'ladder', context(), repo, logger);
    await jobs.playable({ videoId: id }, context());
    expect((await video(id))!.progress).toBe(30);
    report(50);
    await report.flush();
    // The playable file's 30 and half of the ladder's 60.
    expect((await video(id))!.progress).toBe(60);
  });

  it('sweeps an original left behind by a crash between clearing source_key and deleting the object', async () => {
    const id = await ingest(clips.silent!);
    const keys = videoMediaKeys(id);
    for (const job of [jobs.playable, jobs.storyboard, jobs.ladder]) await job({ videoId: id }, context());
    expect((await video(id))!.source_key).toBeNull();
    // The state a crash after the row update leaves: the row names no source, the object is still there.
    await storage.putFile(keys.source, clips.silent!);
    await jobs.ladder({ videoId: id }, context());
    expect(await storage.stat(keys.source)).toBeNull();
    expectOnlyOutputs(id, await storage.list(keys.root));
  });

  it('transcodes a HEVC upload to a first playable H.264 file', async () => {
    const id = await ingest(clips.hevc!);
    await jobs.playable({ videoId: id }, context());
    const row = await video(id);
    expect(row).toMatchObject({ status: 'ready', width: 640, height: 360 });
    const p = await probeMedia(storage.localPath(row!.video_key!)!, { tools });
    expect(p.video!.codec).toBe('h264');
    expect(isBrowserPlayable(p)).toBe(true);
    expect(await moovFirst(storage.localPath(row!.video_key!)!)).toBe(true);
    await jobs.ladder({ videoId: id }, context());
    const { variants } = await checkLadder((await video(id))!.hls_key!);
    expect(variants).toEqual(['240p/index.m3u8', '360p/index.m3u8']);
  });

  it('handles a video without audio', async () => {
    const id = await ingest(clips.silent!);
    await jobs.playable({ videoId: id }, context());
    await jobs.ladder({ videoId: id }, context());
    await jobs.storyboard({ videoId: id }, context());
    const row = await video(id);
    expect(row).toMatchObject({ status: 'ready', progress: 100 });
    expect((await probeMedia(storage.localPath(row!.video_key!)!, { tools })).audio).toBeNull();
    const { infos } = await checkLadder(row!.hls_key!);
    for (const l of infos) {
      expect(l).toMatch(/CODECS="avc1\.[0-9a-f]{6}"/);
      expect(l).not.toContain('mp4a');
    }
    await checkStoryboard(row!.storyboard_key!);
  });

  it('sizes a portrait video by its short side', async () => {
    const id = await ingest(clips.portrait!);
    await jobs.playable({ videoId: id }, context());
    await jobs.ladder({ videoId: id }, context());
    await jobs.storyboard({ videoId: id }, context());
    const row = await video(id);
    expect(row).toMatchObject({ status: 'ready', width: 720, height: 1280 });
    const { infos } = await checkLadder(row!.hls_key!);
    expect(infos.map((l) => /RESOLUTION=(\d+x\d+)/.exec(l)![1])).toEqual(['240x426', '360x640', '480x854', '720x1280']);
    const tiles = await checkStoryboard(row!.storyboard_key!);
    expect(tiles[0]!.slice(4).map(Number)).toEqual([90, 160]);
  });

  it('makes only the ladder rungs the site chose', async () => {
    const chosen = new VideoSteps({ db: handle.db, storage, media: tools, logger, workDir: path.join(dir, 'work'), maxAttempts: 2, ladderRungs: async () => [240, 480, 1080] });
    const id = await ingest(clips.portrait!);
    await chosen.ladder({ videoId: id }, context());
    const { infos } = await checkLadder((await video(id))!.hls_key!);
    // 1080p is above the source: never upscaled.
    expect(infos.map((l) => /RESOLUTION=(\d+x\d+)/.exec(l)![1])).toEqual(['240x426', '480x854']);
  });

  it('fails a corrupt upload with a reason, and later steps do nothing', async () => {
    const id = await ingest(clips.corrupt!);
    await jobs.playable({ videoId: id }, context());
    await jobs.storyboard({ videoId: id }, context());
    await jobs.ladder({ videoId: id }, context());
    const row = await video(id);
    expect(row).toMatchObject({ status: 'failed', failure_reason: FAILURE_REASONS.unreadable, video_key: null, hls_key: null, storyboard_key: null });
    expect(told.filter((t) => t.endsWith(id))).toEqual([`failed:${id}`]);
    // A failed video keeps its source, for whoever looks into it.
    expect((await storage.list(videoMediaKeys(id).root)).sort()).toEqual([row!.source_key, thumbnailKey(id)].sort());
  });

  it('does nothing for a deleted video', async () => {
    const id = await ingest(clips.silent!);
    await handle.db.deleteFrom('videos').where('id', '=', id).execute();
    await storage.deletePrefix(videoMediaKeys(id).root);
    await jobs.playable({ videoId: id }, context());
    await jobs.ladder({ videoId: id }, context());
    expect(await storage.list(videoMediaKeys(id).root)).toEqual([]);
  });

  it('removes its output when the video is deleted while it runs', async () => {
    const id = await ingest(clips.silent!);
    let deleted = false;
    const ctx = context({
      progress: async (p) => {
        if (!deleted && p > 0) {
          deleted = true;
          await handle.db.deleteFrom('videos').where('id', '=', id).execute();
          await storage.deletePrefix(videoMediaKeys(id).root);
        }
      },
    });
    await jobs.ladder({ videoId: id }, ctx);
    expect(deleted).toBe(true);
    expect(await storage.list(videoMediaKeys(id).root)).toEqual([]);
  });

  it('wipes what an interrupted attempt left before redoing the ladder', async () => {
    const id = await ingest(clips.silent!);
    const keys = videoMediaKeys(id);
    await storage.put(`${keys.hlsPrefix}720p/seg-00042.m4s`, Buffer.from('half a segment'));
    await storage.put(keys.hlsMaster, Buffer.from('#EXTM3U\n'));
    await jobs.ladder({ videoId: id }, context());
    const files = await storage.list(keys.hlsPrefix);
    expect(files).not.toContain(`${keys.hlsPrefix}720p/seg-00042.m4s`);
    await checkLadder(keys.hlsMaster);
  });

  it('stops ffmpeg when aborted and leaves the row as it was', async () => {
    const id = await ingest(clips.h264!);
    const abort = new AbortController();
    const ctx = context({
      signal: abort.signal,
      progress: async (p) => {
        if (p > 0) abort.abort(new Error('time limit'));
      },
    });
    const started = Date.now();
    await expect(jobs.ladder({ videoId: id }, ctx)).rejects.toBeTruthy();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await video(id)).toMatchObject({ status: 'processing', hls_key: null, failure_reason: null });
    const work = await fs.readdir(path.join(dir, 'work'));
    expect(work.filter((d) => d.startsWith(id))).toEqual([]);
  });

  it('on the last attempt, fails an unplayable video but keeps a playable one ready', async () => {
    const broken = new VideoSteps({ db: handle.db, storage, media: new MediaTools({ ffmpegPath: path.join(dir, 'no-such-ffmpeg'), ffprobePath }), logger, workDir: path.join(dir, 'work'), maxAttempts: 2 });

    const a = await ingest(clips.silent!);
    await expect(broken.playable({ videoId: a }, context({ attempt: 1 }))).rejects.toThrow();
    expect(await video(a)).toMatchObject({ status: 'processing', failure_reason: null });
    await expect(broken.playable({ videoId: a }, context({ attempt: 2 }))).rejects.toThrow();
    expect(await video(a)).toMatchObject({ status: 'failed', failure_reason: FAILURE_REASONS.failed });

    const b = await ingest(clips.silent!);
    await jobs.playable({ videoId: b }, context());
    await expect(broken.ladder({ videoId: b }, context({ attempt: 2 }))).rejects.toThrow();
    expect(await video(b)).toMatchObject({ status: 'ready', hls_key: null, failure_reason: FAILURE_REASONS.failed });
    // Without its ladder the video is not complete: the source stays, and so does its key.
    await jobs.storyboard({ videoId: b }, context());
    expect(await video(b)).toMatchObject({ source_key: videoMediaKeys(b).source });
    expect(await storage.stat(videoMediaKeys(b).source)).not.toBeNull();
  });
});

describe('video jobs on object storage', () => {
  it('downloads the source, and publishes a playable file, a storyboard and a ladder to S3', async () => {
    const s3 = await startS3Server();
    const local = storage;
    const s3Storage = new S3Storage({ endpoint: s3.endpoint, bucket: s3.bucket, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, forcePathStyle: true, publicBaseUrl: null });
    storage = s3Storage;
    try {
      const onS3 = new VideoSteps({ db: handle.db, storage: s3Storage, media: tools, logger, workDir: path.join(dir, 'work'), maxAttempts: 2 });
      const id = await ingest(clips.silent!);
      await onS3.playable({ videoId: id }, context());
      await onS3.storyboard({ videoId: id }, context());
      await onS3.ladder({ videoId: id }, context());
      const row = await video(id);
      expect(row).toMatchObject({ status: 'ready', progress: 100, width: 640, height: 360 });
      expect(await s3Storage.stat(row!.video_key!)).toMatchObject({ contentType: 'video/mp4' });
      await checkStoryboard(row!.storyboard_key!);
      await checkLadder(row!.hls_key!);
      // The downloaded source was removed from the bucket once everything was published.
      expect(row!.source_key).toBeNull();
      expect(await s3Storage.stat(videoMediaKeys(id).source)).toBeNull();
      expectOnlyOutputs(id, await s3Storage.list(videoMediaKeys(id).root));
      // Nothing of the work directory is left behind.
      expect((await fs.readdir(path.join(dir, 'work'))).filter((d) => d.startsWith(id))).toEqual([]);
    } finally {
      storage = local;
      s3Storage.destroy();
      await s3.stop();
    }
  });
});

describe('VideoPipeline with the local queue', () => {
  it('runs all three jobs from start() to a finished video', async () => {
    const queue = new LocalQueue({ db: handle.db, dialect: handle.dialect, logger, pollIntervalMs: 50 });
    const pipeline = new VideoPipeline({ db: handle.db, storage, queue, media: tools, logger, workDir: path.join(dir, 'work') });
    const id = await ingest(clips.silent!);
    await pipeline.start(id);
    const queued = await handle.db.selectFrom('jobs').select(['name', 'priority', 'payload']).where('payload', '=', JSON.stringify({ videoId: id })).orderBy('priority').execute();
    expect(queued.map((j) => j.name)).toEqual(['video.playable', 'video.storyboard', 'video.ladder']);
    await queue.start(pipeline.handlers(), { concurrency: 1 });
    try {
      const deadline = Date.now() + 45_000;
      let row = await video(id);
      while (row!.progress < 100 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        row = await video(id);
      }
      expect(row).toMatchObject({ status: 'ready', progress: 100 });
      expect(row!.video_key && row!.hls_key && row!.storyboard_key).toBeTruthy();
      // The last job lets go of the source just after recording its output.
      while (row!.source_key !== null && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        row = await video(id);
      }
      expect(row!.source_key).toBeNull();
      // The row lets go of the original first and the object goes a moment later.
      while ((await storage.stat(videoMediaKeys(id).source)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expectOnlyOutputs(id, await storage.list(videoMediaKeys(id).root));
    } finally {
      await queue.close();
    }
  });
});
