import type { AppContext } from './app-context.js';
import { VIEW_WINDOW_MS } from './modules/videos/videos.service.js';
import type { DemoCleanup } from './modules/demo/demo-cleanup.js';
import type { UploadsService } from './modules/uploads/uploads.service.js';
import { sweepOrphans } from './orphan-sweep.js';

/** The services housekeeping asks to tidy their own things. */
export interface HousekeepingServices {
  uploads: Pick<UploadsService, 'removeExpired'>;
  demoCleanup: Pick<DemoCleanup, 'purge'> | null;
}

/**
 * Periodic tidying that any API process may do (all of it is idempotent, so several processes doing
 * it at once is harmless): view de-duplication records past their window, resumable uploads
 * abandoned past their expiry, the demo account's content past its lifetime, and files nothing
 * owns any more.
 */
export async function runHousekeeping(ctx: AppContext, services: HousekeepingServices, now = Date.now()) {
  const views = await ctx.db.deleteFrom('view_events').where('counted_at', '<', now - VIEW_WINDOW_MS).executeTakeFirst();
  const expiredUploads = await services.uploads.removeExpired(now);
  const demo = services.demoCleanup ? await services.demoCleanup.purge(now) : null;
  const orphans = await sweepOrphans(ctx, now);
  return { viewEvents: Number(views.numDeletedRows), expiredUploads, demo, orphans };
}

/** Runs housekeeping now and then every interval; the returned stop waits for a run in progress. */
export function scheduleHousekeeping(ctx: AppContext, services: HousekeepingServices, intervalMs = 10 * 60_000): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = runHousekeeping(ctx, services).then(
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
