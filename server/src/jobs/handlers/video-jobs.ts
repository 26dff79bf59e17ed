import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../db/client.js';
import { MediaError } from '../../media/media-error.js';
import { isBrowserPlayable, probeMedia, type ProbeResult } from '../../media/probe.js';
import { makeFastStart, makeLadder, makeStoryboard } from '../../media/video-tools.js';
import type { Storage } from '../../storage/storage.js';
import type { JobContext, JobHandler } from '../job-types.js';
import { QueueClosingError, type QueueLogger } from '../queue-options.js';
import { isLiveKey, videoMediaKeys } from './video-media.keys.js';
import { liveSize, makeLiveRendition } from '../../media/live-rendition.js';
import { VideoMediaRepository, type VideoMediaRow } from './video-media.repository.js';
import type { PublicChanges } from '../../lib/public-changes.js';
import { uploadOutputs } from './upload-outputs.js';
import { tell, type VideoEvents } from '../../modules/videos/video-events.js';
import { allDone, overallProgress, progressReporter, stepDone, type VideoStep } from './video-steps.js';

export interface VideoJobDeps {
  db: Db;
  storage: Storage;
  ffmpegPath: string;
  ffprobePath: string;
  logger: QueueLogger;
  /** Scratch space; each job works in its own subdirectory and removes it. */
  workDir: string;
  /** Attempts each video job gets; the last one records the failure on the video. */
  maxAttempts: number;
  /** Parallel uploads of one job's files. */
  uploadConcurrency?: number;
  /** Keep the original upload after processing (default: delete it once every output exists). */
  keepOriginalUploads?: boolean;
  /** Niceness of storyboard and ladder ffmpeg processes: they yield the CPU to playable work. */
  backgroundNice?: number;
  /**
   * Queues the live rendition of a source browsers cannot play, in its own lane. Without it (jobs
   * called directly) the playable job makes that rendition itself.
   */
  startLive?(videoId: string): Promise<void>;
  /** Told when a video becomes playable or fails for good (its owner and followers are notified). */
  events?: Pick<VideoEvents, 'videoReady' | 'videoFailed'>;
  /** Heights of the rungs the site makes (an instance setting); every rung when absent. */
  ladderRungs?(): Promise<number[]>;
  /** Told of every step that changes what visitors see (ready, a new rendition, failed). */
  changes?: PublicChanges;
}

/** Reasons shown to the video's owner. */
export const FAILURE_REASONS = {
  unreadable: 'The video file could not be read. It may be damaged or not a video.',
  noVideo: 'The file has no video track.',
  missingSource: 'The uploaded file is missing.',
  timeout: 'Processing took too long and was stopped.',
  failed: 'The video could not be processed.',
} as const;

/** A permanent problem with the source: retrying cannot help, so the video fails at once. */
class SourceRejected extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

interface StepRun {
  row: VideoMediaRow;
  dir: string;
  source: string;
  probe: ProbeResult;
  /** Job-local progress 0-100; mirrored to the queue and, as overall progress, to the row. */
  progress(percent: number): void;
  signal: AbortSignal;
}

/**
 * The three media jobs of a video. Each reloads the row, does nothing for a deleted or failed video
 * or a step already done, wipes its own half-written output, works in a private temp directory,
 * uploads, and only then records its key: a job killed half-way leaves nothing the row points at.
 * Whichever job finds all three outputs recorded removes the original upload (see releaseSource).
 */
export class VideoJobs {
  private readonly repo: VideoMediaRepository;

  constructor(private readonly deps: VideoJobDeps) {
    this.repo = new VideoMediaRepository(deps.db, deps.changes);
  }

  /**
   * A source browsers play is remuxed here, in a second or so. Any other source is handed to the
   * live lane, so a long transcode never holds a slot that quick remuxes need.
   */
  readonly playable: JobHandler<'video.playable'> = (payload, ctx) =>
    this.run('playable', payload.videoId, ctx, async (r) => {
      if (isBrowserPlayable(r.probe)) {
        await this.storePlayable(r, await makeFastStart(r.source, path.join(r.dir, 'play.mp4'), r.probe, this.toolOptions(r, 0, 90)));
      } else if (this.deps.startLive) {
        await this.deps.startLive(r.row.id);
      } else {
        await this.makeLive(r);
      }
    });

  readonly live: JobHandler<'video.live'> = (payload, ctx) => this.run('playable', payload.videoId, ctx, (r) => this.makeLive(r));

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
          gone = !(await this.repo.markLive(r.row.id, { hlsKey: keys.livePlaylist, duration: roundDuration(r.probe.duration), ...liveSize(r.probe) }));
          if (!gone) await this.told('videoReady', r.row.id);
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
    {
      const keys = videoMediaKeys(r.row.id);
      const out = path.join(r.dir, 'play.mp4');
      if (!result.video) throw new MediaError('failed', 'The playable file has no video stream');
      if (!(await this.stillThere(r.row.id))) return;
      await this.deps.storage.putFile(keys.playable, out, 'video/mp4');
      r.progress(100);
      const recorded = await this.repo.markPlayable(r.row.id, {
        videoKey: keys.playable,
        duration: roundDuration(result.duration || r.probe.duration),
        width: result.video.width,
        height: result.video.height,
      });
      if (!recorded) await this.deps.storage.delete(keys.playable);
      else await this.told('videoReady', r.row.id);
    }
  }

  readonly storyboard: JobHandler<'video.storyboard'> = (payload, ctx) =>
    this.run('storyboard', payload.videoId, ctx, async (r) => {
      const keys = videoMediaKeys(r.row.id);
      const outDir = path.join(r.dir, 'storyboard');
      const result = await makeStoryboard(r.source, outDir, r.probe, { ...this.toolOptions(r, 0, 80), nice: this.deps.backgroundNice });
      if (!(await this.stillThere(r.row.id))) return;
      await uploadOutputs(this.deps.storage, outDir, keys.storyboardPrefix, result.files, { signal: r.signal, progress: r.progress, from: 80, to: 100, lanes: this.deps.uploadConcurrency });
      if (!(await this.repo.setStoryboardKey(r.row.id, keys.storyboardVtt))) await this.deps.storage.deletePrefix(keys.storyboardPrefix);
    });

  readonly ladder: JobHandler<'video.ladder'> = (payload, ctx) =>
    this.run('ladder', payload.videoId, ctx, async (r) => {
      const keys = videoMediaKeys(r.row.id);
      const outDir = path.join(r.dir, 'hls');
      const rungs = await this.deps.ladderRungs?.();
      const result = await makeLadder(r.source, outDir, r.probe, { ...this.toolOptions(r, 0, 90), nice: this.deps.backgroundNice, rungs });
      if (!(await this.stillThere(r.row.id))) return;
      // The master goes last (files lists it last): a player never finds a master before its variants.
      await uploadOutputs(this.deps.storage, outDir, keys.hlsPrefix, result.files, { signal: r.signal, progress: r.progress, from: 90, to: 100, lanes: this.deps.uploadConcurrency });
      if (!(await this.repo.setHlsKey(r.row.id, keys.hlsMaster))) await this.deps.storage.deletePrefix(keys.hlsPrefix);
    });

  private async run(step: VideoStep, videoId: string, ctx: JobContext, work: (r: StepRun) => Promise<void>): Promise<void> {
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
        probe = await probeMedia(source, { ffprobePath: this.deps.ffprobePath, signal: ctx.signal });
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
    if (ctx.attempt >= this.deps.maxAttempts) {
      const timedOut = ctx.signal.aborted || (err instanceof MediaError && err.kind === 'timeout');
      await this.recordFinalFailure(step, videoId, timedOut ? FAILURE_REASONS.timeout : FAILURE_REASONS.failed);
      log.error({ videoId, step, err }, 'video step failed for good');
    }
    throw err;
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

  private async told(what: 'videoReady' | 'videoFailed', videoId: string): Promise<void> {
    const events = this.deps.events;
    if (events) await tell(this.deps.logger, what, () => events[what](videoId));
  }

  private async stillThere(videoId: string): Promise<boolean> {
    const row = await this.repo.find(videoId);
    return row !== null && row.status !== 'failed';
  }

  /** Reads the source in place when it is on this machine, otherwise downloads it. */
  private async sourceFile(key: string, dir: string): Promise<string> {
    const local = this.deps.storage.localPath(key);
    if (local && (await fs.stat(local).then((s) => s.isFile(), () => false))) return local;
    const file = path.join(dir, `source${path.extname(key) || '.mp4'}`);
    try {
      await this.deps.storage.download(key, file);
    } catch (err) {
      if (!(await this.deps.storage.stat(key))) throw new SourceRejected(FAILURE_REASONS.missingSource);
      throw err;
    }
    return file;
  }

  private toolOptions(r: StepRun, from: number, to: number) {
    return {
      ffmpegPath: this.deps.ffmpegPath,
      ffprobePath: this.deps.ffprobePath,
      signal: r.signal,
      logger: this.deps.logger,
      onProgress: (p: number) => r.progress(from + ((to - from) * p) / 100),
    };
  }

  /** After a step, overall progress is recomputed from what the row says is done. */
  private async syncProgress(videoId: string): Promise<void> {
    const row = await this.repo.find(videoId);
    if (row) await this.repo.raiseProgress(videoId, overallProgress(row));
  }
}

/** Durations are stored to the millisecond. */
const roundDuration = (seconds: number) => Math.round(seconds * 1000) / 1000;
