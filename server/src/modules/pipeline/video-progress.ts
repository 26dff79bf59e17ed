import type { JobContext } from '../../jobs/job-types.js';
import type { QueueLogger } from '../../jobs/queue-options.js';
import { isLiveKey } from './video-media.keys.js';
import type { VideoMediaRepository, VideoMediaRow } from './video-media.repository.js';

/** The three steps of a video, what counts as each one done, and the overall progress they add up to. */
export type VideoStep = 'playable' | 'storyboard' | 'ladder';

/** Share of the overall progress each step stands for: the ladder is most of the work. */
export const STEP_WEIGHT: Record<VideoStep, number> = { playable: 30, storyboard: 10, ladder: 60 };

/** The ladder is done when the row names its master; the live rendition does not count. */
export const stepDone = (row: VideoMediaRow, step: VideoStep) =>
  step === 'playable' ? row.video_key !== null : step === 'storyboard' ? row.storyboard_key !== null : row.hls_key !== null && !isLiveKey(row.hls_key);

/** Every output exists: nothing will read the source again. */
export const allDone = (row: VideoMediaRow) => row.status !== 'failed' && stepDone(row, 'playable') && stepDone(row, 'storyboard') && stepDone(row, 'ladder');

/** Overall progress: finished steps count whole, the running one by its fraction. */
export function overallProgress(row: VideoMediaRow, running?: { step: VideoStep; percent: number }): number {
  let total = 0;
  for (const step of Object.keys(STEP_WEIGHT) as VideoStep[]) {
    if (stepDone(row, step)) total += STEP_WEIGHT[step];
    else if (running?.step === step) total += (STEP_WEIGHT[step] * running.percent) / 100;
  }
  return Math.min(100, Math.floor(total));
}

/**
 * Progress goes to the queue as the job's own percentage and to the row as overall progress,
 * at most about once a second (ffmpeg reports many times a second), each time from what the row
 * says is done then.
 */
export function progressReporter(row: VideoMediaRow, step: VideoStep, ctx: JobContext, repo: VideoMediaRepository, logger: QueueLogger) {
  let lastSent = -1;
  let lastAt = 0;
  let latest = 0;
  let chain: Promise<void> = Promise.resolve();
  const send = (percent: number) => {
    lastSent = percent;
    lastAt = Date.now();
    chain = chain
      .then(async () => {
        await ctx.progress(percent);
        // Steps running beside this one may have finished since it started: they count whole.
        const now = (await repo.find(row.id)) ?? row;
        await repo.raiseProgress(row.id, overallProgress(now, { step, percent }));
      })
      .catch((err) => logger.warn({ videoId: row.id, err }, 'could not record progress'));
  };
  const fn = (percent: number) => {
    latest = Math.max(latest, Math.floor(percent));
    if (latest === lastSent) return;
    if (latest === 100 || Date.now() - lastAt >= 1000) send(latest);
  };
  return Object.assign(fn, {
    flush: async () => {
      if (latest !== lastSent) send(latest);
      await chain;
    },
  });
}
