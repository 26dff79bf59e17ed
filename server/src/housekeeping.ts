import type { AppContext } from './app-context.js';
import { VIEW_WINDOW_MS } from './modules/videos/videos.service.js';
import { purgeDemoContent } from './modules/users/demo-cleanup.js';
import { sweepOrphans } from './orphan-sweep.js';
import { createUploadsService } from './modules/uploads/uploads.routes.js';

/**
 * Periodic tidying that any API process may do (all of it is idempotent, so several processes doing
 * it at once is harmless): view de-duplication records past their window, resumable uploads
 * abandoned past their expiry, the demo account's content past its lifetime, and files nothing
 * owns any more.
 */
export async function runHousekeeping(ctx: AppContext, now = Date.now()) {
  const views = await ctx.db.deleteFrom('view_events').where('counted_at', '<', now - VIEW_WINDOW_MS).executeTakeFirst();
  const expiredUploads = await createUploadsService(ctx).removeExpired(now);
  const demo = ctx.config.demo.enabled ? await purgeDemoContent(ctx, now) : null;
  const orphans = await sweepOrphans(ctx, now);
  return { viewEvents: Number(views.numDeletedRows), expiredUploads, demo, orphans };
}

/** Runs housekeeping now and then every interval; the returned stop waits for a run in progress. */
export function scheduleHousekeeping(ctx: AppContext, intervalMs = 10 * 60_000): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = runHousekeeping(ctx).then(
      (r) => {
        const orphans = r.orphans.temporaryFiles + r.orphans.mediaPrefixes;
        if (r.viewEvents || r.expiredUploads || orphans || (r.demo && Object.values(r.demo).some(Boolean))) ctx.logger.info(r, 'housekeeping done');
      },
      (err) => ctx.logger.error({ err }, 'housekeeping failed'),
    );
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
