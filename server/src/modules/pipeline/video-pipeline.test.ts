import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clips, dir, expectOnlyOutputs, handle, ingest, logger, setUpPipelineTests, storage, tools, video } from '../../../test/support/pipeline-steps.js';
import { LocalQueue } from '../../jobs/local-queue.js';
import { VideoPipeline } from './video-pipeline.js';
import { videoMediaKeys } from './video-media.keys.js';

setUpPipelineTests(['silent']);

describe('VideoPipeline with the local queue', () => {
  it('runs all three jobs from start() to a finished video', async () => {
    const queue = new LocalQueue({ db: handle.db, dialect: handle.dialect, logger, pollIntervalMs: 50 });
    const pipeline = new VideoPipeline({ db: handle.db, storage, queue, media: tools, logger, workDir: path.join(dir, 'work') });
    const id = await ingest(clips.silent!);
    await pipeline.start(id);
    const queued = await handle.db
      .selectFrom('jobs')
      .select(['name', 'priority', 'payload'])
      .where('payload', '=', JSON.stringify({ videoId: id }))
      .orderBy('priority')
      .execute();
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
