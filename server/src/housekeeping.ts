import type { InterruptedResult } from './backup/backup-folder.js';
import type { DemoCleanupResult } from './modules/demo/demo-cleanup.js';
import type { ViewEventsRepository } from './modules/videos/view-events.repository.js';
import { VIEW_WINDOW_MS } from './modules/videos/videos.service.js';
import type { SweepResult } from './orphan-sweep.js';

export interface HousekeepingDeps {
  viewEvents: ViewEventsRepository;
  uploads: { removeExpired(now: number): Promise<number> };
  /** The demo account's content past its lifetime; null while the demo account is off. */
  demo: { purge(now: number): Promise<DemoCleanupResult> } | null;
  orphans: { sweep(now: number): Promise<SweepResult> };
  /** Backups whose process died midway: their runs failed, their partial folders removed. */
  backups: { settle(now: number): Promise<InterruptedResult> };
  logger: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * Periodic tidying that any API process may do (all of it is idempotent, so several processes doing
 * it at once is harmless): view de-duplication records past their window, resumable uploads
 * abandoned past their expiry, the demo account's content past its lifetime, and files nothing
 * owns any more (job scratch directories of stopped processes included), and what an interrupted
 * backup left (its run is reported failed, never good).
 */
export class Housekeeping {
  constructor(private readonly deps: HousekeepingDeps) {}

  async run(now = Date.now()) {
    const viewEvents = await this.deps.viewEvents.deleteCountedBefore(now - VIEW_WINDOW_MS);
    const expiredUploads = await this.deps.uploads.removeExpired(now);
    const demo = this.deps.demo ? await this.deps.demo.purge(now) : null;
    const orphans = await this.deps.orphans.sweep(now);
    const backups = await this.deps.backups.settle(now);
    return { viewEvents, expiredUploads, demo, orphans, backups };
  }

  /** Runs now and then every interval; the returned stop waits for a run in progress. */
  schedule(intervalMs = 10 * 60_000): () => Promise<void> {
    const { logger } = this.deps;
    let running: Promise<void> = Promise.resolve();
    const run = () => {
      running = this.run().then(
        (r) => {
          const orphans = r.orphans.temporaryFiles + r.orphans.workDirs + r.orphans.mediaPrefixes;
          if (r.viewEvents || r.expiredUploads || orphans || r.backups.runs || r.backups.folders || (r.demo && Object.values(r.demo).some(Boolean)))
            logger.info(r, 'housekeeping done');
        },
        (err) => logger.error({ err }, 'housekeeping failed'),
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
}
