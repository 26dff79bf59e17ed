import path from 'node:path';
import type { JobHandler } from '../../jobs/job-types.js';
import { liveSize, makeLiveRendition } from '../../media/live-rendition.js';
import { MediaError } from '../../media/media-error.js';
import { isBrowserPlayable, type ProbeResult } from '../../media/probe.js';
import { makeFastStart, makeLadder, makeStoryboard, type ToolOptions } from '../../media/video-tools.js';
import { uploadOutputs } from './upload-outputs.js';
import type { VideoStepDeps } from './video-pipeline.deps.js';
import { videoMediaKeys } from './video-media.keys.js';
import { type StepRun, VideoStepRunner } from './video-step-runner.js';
import type { VideoStep } from './video-progress.js';

/**
 * What each media job of a video makes: the playable file (a fast-start remux, or a live rendition
 * for a source browsers cannot play), the seek-preview storyboard and the HLS ladder. How a step is
 * run (the row, progress, retries, work directories) is the runner's.
 */
export class VideoSteps {
  private readonly runner: VideoStepRunner;

  /**
   * `startLive` queues the live rendition of a source browsers cannot play, in its own lane.
   * Without it (steps called directly) the playable step makes that rendition itself.
   */
  constructor(
    private readonly deps: VideoStepDeps,
    private readonly startLive?: (videoId: string) => Promise<void>,
  ) {
    this.runner = new VideoStepRunner(deps);
  }

  /**
   * A source browsers play is remuxed here, in a second or so. Any other source is handed to the
   * live lane, so a long transcode never holds a slot that quick remuxes need.
   */
  readonly playable: JobHandler<'video.playable'> = (payload, ctx) =>
    this.runner.run('playable', payload.videoId, ctx, async (r) => {
      if (isBrowserPlayable(r.probe)) {
        await this.storePlayable(r, await makeFastStart(r.source, path.join(r.dir, 'play.mp4'), r.probe, this.toolOptions(r, 0, 90)));
      } else if (this.startLive) {
        await this.startLive(r.row.id);
      } else {
        await this.makeLive(r);
      }
    });

  readonly live: JobHandler<'video.live'> = (payload, ctx) => this.runner.run('playable', payload.videoId, ctx, (r) => this.makeLive(r));

  readonly storyboard: JobHandler<'video.storyboard'> = (payload, ctx) =>
    this.runner.run('storyboard', payload.videoId, ctx, async (r) => {
      const keys = videoMediaKeys(r.row.id);
      const outDir = path.join(r.dir, 'storyboard');
      const result = await makeStoryboard(r.source, outDir, r.probe, { ...this.toolOptions(r, 0, 80), background: true });
      if (!(await this.runner.stillThere(r.row.id))) return;
      await uploadOutputs(this.deps.storage, outDir, keys.storyboardPrefix, result.files, {
        signal: r.signal,
        progress: r.progress,
        from: 80,
        to: 100,
        lanes: this.deps.uploadConcurrency,
      });
      if (!(await this.runner.repo.setStoryboardKey(r.row.id, keys.storyboardVtt))) await this.deps.storage.deletePrefix(keys.storyboardPrefix);
    });

  readonly ladder: JobHandler<'video.ladder'> = (payload, ctx) =>
    this.runner.run('ladder', payload.videoId, ctx, async (r) => {
      const keys = videoMediaKeys(r.row.id);
      const outDir = path.join(r.dir, 'hls');
      const rungs = await this.deps.ladderRungs?.();
      const result = await makeLadder(r.source, outDir, r.probe, { ...this.toolOptions(r, 0, 90), background: true, rungs });
      if (!(await this.runner.stillThere(r.row.id))) return;
      // The master goes last (files lists it last): a player never finds a master before its variants.
      await uploadOutputs(this.deps.storage, outDir, keys.hlsPrefix, result.files, {
        signal: r.signal,
        progress: r.progress,
        from: 90,
        to: 100,
        lanes: this.deps.uploadConcurrency,
      });
      if (!(await this.runner.repo.setHlsKey(r.row.id, keys.hlsMaster))) await this.deps.storage.deletePrefix(keys.hlsPrefix);
    });

  /** For a job that failed for good without its handler knowing: see VideoStepRunner.recordFinalFailure. */
  recordFinalFailure(step: VideoStep, videoId: string, reason: string): Promise<void> {
    return this.runner.recordFinalFailure(step, videoId, reason);
  }

  /**
   * A live-style HLS rendition, published segment by segment as ffmpeg writes it: the video is
   * ready once the first segment and a playlist naming it are stored, and players follow the
   * playlist as it grows. The same encode becomes the progressive file at the end.
   */
  private async makeLive(r: StepRun): Promise<void> {
    const keys = videoMediaKeys(r.row.id);
    let announced = false;
    let gone = false;
    const result = await makeLiveRendition(r.source, r.dir, r.probe, {
      ...this.toolOptions(r, 0, 90),
      onUpdate: async (u) => {
        if (gone) return;
        // Segments before the playlist that names them: a player never finds a missing segment.
        for (const f of u.newFiles) await this.deps.storage.putFile(keys.livePrefix + f, path.join(u.dir, f));
        await this.deps.storage.put(keys.livePlaylist, Buffer.from(u.playlist), 'application/vnd.apple.mpegurl');
        if (!announced) {
          announced = true;
          gone = !(await this.runner.repo.markLive(r.row.id, { hlsKey: keys.livePlaylist, duration: roundDuration(r.probe.duration), ...liveSize(r.probe) }));
          if (!gone) await this.runner.told('videoReady', r.row.id);
          this.deps.logger.info({ videoId: r.row.id, segments: u.segments, seconds: u.seconds }, 'live rendition playable');
        }
      },
    });
    if (gone) {
      await this.deps.storage.deletePrefix(keys.livePrefix);
      return;
    }
    await this.storePlayable(r, result.probe);
  }

  private async storePlayable(r: StepRun, result: ProbeResult): Promise<void> {
    const keys = videoMediaKeys(r.row.id);
    const out = path.join(r.dir, 'play.mp4');
    if (!result.video) throw new MediaError('failed', 'The playable file has no video stream');
    if (!(await this.runner.stillThere(r.row.id))) return;
    await this.deps.storage.putFile(keys.playable, out, 'video/mp4');
    r.progress(100);
    const recorded = await this.runner.repo.markPlayable(r.row.id, {
      videoKey: keys.playable,
      duration: roundDuration(result.duration || r.probe.duration),
      width: result.video.width,
      height: result.video.height,
    });
    if (!recorded) await this.deps.storage.delete(keys.playable);
    else await this.runner.told('videoReady', r.row.id);
  }

  /** The step's share of the job's progress runs from `from` to `to` while ffmpeg works. */
  private toolOptions(r: StepRun, from: number, to: number): ToolOptions {
    return {
      tools: this.deps.media,
      signal: r.signal,
      logger: this.deps.logger,
      onProgress: (p: number) => r.progress(from + ((to - from) * p) / 100),
    };
  }
}

/** Durations are stored to the millisecond. */
const roundDuration = (seconds: number) => Math.round(seconds * 1000) / 1000;
