import fs from 'node:fs/promises';
import path from 'node:path';
import { VIDEO_FAILURE_REASONS } from '@reelhouse/contract';
import type { JobContext } from '../../jobs/job-types.js';
import { DEFAULT_MAX_ATTEMPTS, QueueClosingError } from '../../jobs/queue-options.js';
import { MediaError } from '../../media/media-error.js';
import { probeMedia, type ProbeResult } from '../../media/probe.js';
import { tell } from '../videos/video-events.js';
import type { VideoStepDeps } from './video-pipeline.deps.js';
import { isLiveKey, videoMediaKeys } from './video-media.keys.js';
import { VideoMediaRepository, type VideoMediaRow } from './video-media.repository.js';
import { allDone, overallProgress, progressReporter, stepDone, type VideoStep } from './video-progress.js';

/** Reasons shown to the video's owner, kept in English (clients translate them by their text). */
export const FAILURE_REASONS = VIDEO_FAILURE_REASONS;

/** A permanent problem with the source: retrying cannot help, so the video fails at once. */
class SourceRejected extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** What a step is given to work with. */
export interface StepRun {
  row: VideoMediaRow;
  dir: string;
  source: string;
  probe: ProbeResult;
  /** Job-local progress 0-100; mirrored to the queue and, as overall progress, to the row. */
  progress(percent: number): void;
  signal: AbortSignal;
}

/**
 * Runs one step of a video the same way whatever it makes: reloads the row, does nothing for a
 * deleted or failed video or a step already done, wipes the step's own half-written output, works
 * in a private temp directory, reports progress, and on failure retries or marks the video. A step
 * records its key only after uploading, so a job killed half-way leaves nothing the row points at.
 * Whichever step finds all three outputs recorded removes the original upload (see releaseSource).
 */
export class VideoStepRunner {
  readonly repo: VideoMediaRepository;
  private readonly maxAttempts: number;

  constructor(private readonly deps: VideoStepDeps) {
    this.repo = new VideoMediaRepository(deps.db, deps.changes);
    this.maxAttempts = deps.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  }

  async run(step: VideoStep, videoId: string, ctx: JobContext, work: (r: StepRun) => Promise<void>): Promise<void> {
    const log = this.deps.logger;
    const row = await this.repo.find(videoId);
    if (!row) {
      log.info({ videoId, step }, 'video is gone; nothing to do');
      return;
    }
    if (row.status === 'failed') return;
    // A done step never needs the source, which may already be gone; a retry only finishes the release.
    if (stepDone(row, step)) {
      await this.releaseSource(videoId);
      return;
    }

    const keys = videoMediaKeys(videoId);
    // Whatever an earlier, interrupted attempt left behind goes first.
    if (step === 'playable') await this.deps.storage.delete(keys.playable);
    else await this.deps.storage.deletePrefix(step === 'ladder' ? keys.hlsPrefix : keys.storyboardPrefix);

    await fs.mkdir(this.deps.workDir, { recursive: true });
    const dir = await fs.mkdtemp(path.join(this.deps.workDir, `${videoId}-${step}-`));
    try {
      if (!row.source_key) throw new SourceRejected(FAILURE_REASONS.missingSource);
      const source = await this.sourceFile(row.source_key, dir);
      let probe: ProbeResult;
      try {
        probe = await probeMedia(source, { tools: this.deps.media, signal: ctx.signal });
      } catch (err) {
        if (err instanceof MediaError && (err.kind === 'unreadable' || err.kind === 'unsupported')) throw new SourceRejected(FAILURE_REASONS.unreadable);
        throw err;
      }
      if (!probe.video) throw new SourceRejected(FAILURE_REASONS.noVideo);
      if (!(probe.duration > 0)) throw new SourceRejected(FAILURE_REASONS.unreadable);

      const progress = progressReporter(row, step, ctx, this.repo, this.deps.logger);
      await work({ row, dir, source, probe, progress, signal: ctx.signal });
      await progress.flush();
      await this.syncProgress(videoId);
    } catch (err) {
      await this.onError(step, videoId, ctx, err);
      return;
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
    // Outside the step's error handling: a storage hiccup here is retried, not held against the video.
    await this.releaseSource(videoId);
  }

  /**
   * A video that cannot be played fails; one that already plays stays ready when a later step
   * (storyboard, ladder) gives up, since the progressive file still serves it.
   */
  async recordFinalFailure(step: VideoStep, videoId: string, reason: string): Promise<void> {
    const row = await this.repo.find(videoId);
    if (!row || row.status === 'failed') return;
    if (step === 'playable' || row.video_key === null) {
      await this.repo.markFailed(videoId, reason);
      await this.told('videoFailed', videoId);
    } else {
      await this.repo.noteFailure(videoId, reason);
    }
  }

  async told(what: 'videoReady' | 'videoFailed', videoId: string): Promise<void> {
    const events = this.deps.events;
    if (events) await tell(this.deps.logger, what, () => events[what](videoId));
  }

  /** The row is still there and not failed: what a step made is worth recording. */
  async stillThere(videoId: string): Promise<boolean> {
    const row = await this.repo.find(videoId);
    return row !== null && row.status !== 'failed';
  }

  /**
   * Once playable file, storyboard and ladder all exist nothing reads the original again, so it goes
   * (unless the site keeps originals). The row lets go of it first and the object goes after, so a
   * row never names a missing file; of two jobs finishing together only the one whose update matched
   * deletes. A crash between the two writes leaves the object unnamed: the retried job finds its
   * step done and sweeps it here. A failed or unfinished video keeps its source.
   */
  private async releaseSource(videoId: string): Promise<void> {
    const row = await this.repo.find(videoId);
    if (!row || !allDone(row)) return;
    // The ladder has replaced the live rendition, and the progressive file is stored: it has done its work.
    if (row.video_key && !isLiveKey(row.hls_key)) await this.deps.storage.deletePrefix(videoMediaKeys(videoId).livePrefix);
    if (this.deps.keepOriginalUploads) return;
    if (row.source_key) {
      if (!(await this.repo.releaseSourceKey(videoId, row.source_key))) return;
      await this.deps.storage.delete(row.source_key);
      this.deps.logger.info({ videoId, key: row.source_key }, 'original upload removed');
      return;
    }
    const leftover = videoMediaKeys(videoId).source;
    if (leftover !== row.video_key) await this.deps.storage.delete(leftover);
  }

  private async onError(step: VideoStep, videoId: string, ctx: JobContext, err: unknown): Promise<void> {
    const log = this.deps.logger;
    if (err instanceof SourceRejected) {
      log.warn({ videoId, step, reason: err.reason }, 'video source rejected');
      await this.repo.markFailed(videoId, err.reason);
      await this.told('videoFailed', videoId);
      return;
    }
    // Shutting down is not the job's fault: it runs again on the next start.
    if (ctx.signal.aborted && ctx.signal.reason instanceof QueueClosingError) throw err;
    if (ctx.attempt >= this.maxAttempts) {
      const timedOut = ctx.signal.aborted || (err instanceof MediaError && err.kind === 'timeout');
      await this.recordFinalFailure(step, videoId, timedOut ? FAILURE_REASONS.timeout : FAILURE_REASONS.failed);
      log.error({ videoId, step, err }, 'video step failed for good');
    }
    throw err;
  }

  /** Reads the source in place when it is on this machine, otherwise downloads it. */
  private async sourceFile(key: string, dir: string): Promise<string> {
    const local = this.deps.storage.localPath(key);
    if (
      local &&
      (await fs.stat(local).then(
        (s) => s.isFile(),
        () => false,
      ))
    )
      return local;
    const file = path.join(dir, `source${path.extname(key) || '.mp4'}`);
    try {
      await this.deps.storage.download(key, file);
    } catch (err) {
      if (!(await this.deps.storage.stat(key))) throw new SourceRejected(FAILURE_REASONS.missingSource);
      throw err;
    }
    return file;
  }

  /** After a step, overall progress is recomputed from what the row says is done. */
  private async syncProgress(videoId: string): Promise<void> {
    const row = await this.repo.find(videoId);
    if (row) await this.repo.raiseProgress(videoId, overallProgress(row));
  }
}
