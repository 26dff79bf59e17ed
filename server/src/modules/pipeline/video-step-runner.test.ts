import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkLadder,
  clips,
  context,
  dir,
  expectOnlyOutputs,
  ffprobePath,
  handle,
  ingest,
  jobs,
  logger,
  setUpPipelineTests,
  storage,
  thumbnailKey,
  told,
  tools,
  video,
} from '../../../test/support/pipeline-steps.js';
import { MediaTools } from '../../media/media-tools.js';
import { videoMediaKeys } from './video-media.keys.js';
import { VideoMediaRepository } from './video-media.repository.js';
import { progressReporter } from './video-progress.js';
import { FAILURE_REASONS } from './video-step-runner.js';
import { VideoSteps } from './video-steps.js';

setUpPipelineTests(['h264', 'silent', 'corrupt']);

describe('video step runner: the row, the source, progress, failures', () => {
  it('keeps the original with KEEP_ORIGINAL_UPLOADS, and a later re-run without it removes the original once', async () => {
    const keeping = new VideoSteps({
      db: handle.db,
      storage,
      media: tools,
      logger,
      workDir: path.join(dir, 'work'),
      maxAttempts: 2,
      keepOriginalUploads: true,
    });
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
    const broken = new VideoSteps({
      db: handle.db,
      storage,
      media: new MediaTools({ ffmpegPath: path.join(dir, 'no-such-ffmpeg'), ffprobePath }),
      logger,
      workDir: path.join(dir, 'work'),
      maxAttempts: 2,
    });

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
