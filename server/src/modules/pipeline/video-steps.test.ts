import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bytesUnder,
  checkLadder,
  checkStoryboard,
  clips,
  context,
  dir,
  expectOnlyOutputs,
  handle,
  ingest,
  jobs,
  logger,
  moovFirst,
  ownerId,
  setUpPipelineTests,
  storage,
  told,
  tools,
  useStorage,
  video,
} from '../../../test/support/pipeline-steps.js';
import { startS3Server } from '../../../test/support/s3-server.js';
import { isBrowserPlayable, probeMedia } from '../../media/probe.js';
import { S3Storage } from '../../storage/s3-storage.js';
import { videoMediaKeys } from './video-media.keys.js';
import { VideoSteps } from './video-steps.js';

setUpPipelineTests(['h264', 'hevc', 'silent', 'portrait']);

describe('video steps: what each one makes', () => {
  it('makes an H.264/AAC upload playable by remuxing, then a storyboard, then the ladder', async () => {
    const id = await ingest(clips.h264!);
    const keys = videoMediaKeys(id);

    const ctx = context();
    await jobs.playable({ videoId: id }, ctx);
    let row = await video(id);
    expect(row).toMatchObject({
      status: 'ready',
      video_key: keys.playable,
      width: 1280,
      height: 720,
      hls_key: null,
      storyboard_key: null,
      failure_reason: null,
    });
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
    const chosen = new VideoSteps({
      db: handle.db,
      storage,
      media: tools,
      logger,
      workDir: path.join(dir, 'work'),
      maxAttempts: 2,
      ladderRungs: async () => [240, 480, 1080],
    });
    const id = await ingest(clips.portrait!);
    await chosen.ladder({ videoId: id }, context());
    const { infos } = await checkLadder((await video(id))!.hls_key!);
    // 1080p is above the source: never upscaled.
    expect(infos.map((l) => /RESOLUTION=(\d+x\d+)/.exec(l)![1])).toEqual(['240x426', '480x854']);
  });
});

describe('video jobs on object storage', () => {
  it('downloads the source, and publishes a playable file, a storyboard and a ladder to S3', async () => {
    const s3 = await startS3Server();
    const local = storage;
    const s3Storage = new S3Storage({
      endpoint: s3.endpoint,
      bucket: s3.bucket,
      region: s3.region,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
      publicBaseUrl: null,
    });
    useStorage(s3Storage);
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
      useStorage(local);
      s3Storage.destroy();
      await s3.stop();
    }
  });
});
