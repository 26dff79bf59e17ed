import path from 'node:path';
import type { Logger } from 'pino';
import type { AppContext } from '../app-context.js';
import type { AppParts } from '../app.js';
import type { Config } from '../config.js';
import { type DbHandle, openDatabase } from '../db/client.js';
import { HealthRepository } from '../db/health.repository.js';
import { prepareWorkDir, removeWorkDir } from '../jobs/work-dir.js';
import { createAnswerStore } from '../lib/create-answer-store.js';
import { defaultImages } from '../lib/default-images.js';
import { KeptCheck } from '../lib/kept-check.js';
import { createNotifications } from '../modules/notifications/create-notifications.js';
import { ServeSourceAsIs } from '../modules/pipeline/serve-source-as-is.js';
import { UploadStore } from '../modules/uploads/upload-store.js';
import { loadSiteId } from '../modules/users/settings.repository.js';
import { createStorage } from '../storage/create-storage.js';
import { S3Storage } from '../storage/s3-storage.js';
import { createJobs } from './jobs.js';
import { apiRoutes, siteRoutes } from './routes.js';
import { buildServices, type Services } from './services.js';
import { runStartUpWork } from './start-up.js';
import { startIngest } from './live.js';

export interface Runtime {
  ctx: AppContext;
  services: Services;
  /** What the HTTP application serves, for buildApp. */
  http: AppParts;
  close(): Promise<void>;
}

/**
 * Opens the database, storage and queue that one API process of the site needs, builds its
 * services once, and says what its HTTP application serves. The migrations and the building, with
 * the rows the site needs, are the process's start-up work, done one process at a time (see
 * start-up.ts); the background work (housekeeping, jobs) starts once that is over.
 */
export async function createRuntime(config: Config, logger: Logger, overrides: { serveSourceAsIs?: boolean } = {}): Promise<Runtime> {
  const database = await openDatabase(config, { migrate: false, onIdleError: (err) => logger.warn({ err }, 'database connection dropped') });
  const site = await runStartUpWork(config, database, logger, () => buildSite(config, logger, database, overrides));
  const { ctx, services, jobs, runJobs } = site;
  const stopHousekeeping = services.housekeeping.schedule();
  const health = new HealthRepository(database.probe());
  const storageHealth = new KeptCheck(() => ctx.storage.healthy());
  if (runJobs) {
    await ctx.queue.start({ ...jobs.handlers(), ...services.federation?.handlers() }, { concurrency: config.jobConcurrency });
    services.federation?.start();
  }
  const stopTrending = runJobs ? jobs.trending.schedule() : () => {};
  const stopBackups = runJobs ? jobs.backups.schedule() : () => {};
  const stopIngest = await startIngest(services.live, logger, config.live.rtmpPort, config.redisUrl);
  services.liveChat.viewers.start();
  return {
    ctx,
    services,
    http: {
      api: apiRoutes(ctx, services),
      site: siteRoutes(ctx, services),
      pageMeta: (pagePath, origin, language) => services.previews.pageMeta(pagePath, origin, language),
      verifySession: (token) => services.sessions.verify(token),
      databaseReachable: () => health.reachable(),
      storageReachable: () => storageHealth.ask(),
    },
    close: async () => {
      services.federation?.close();
      await stopIngest();
      await services.liveChat.close();
      stopTrending();
      stopBackups();
      await stopHousekeeping();
      await site.close();
    },
  };
}

/**
 * Builds the process's context and services on a migrated database, and makes sure of the demo
 * account and the ADMIN_EMAILS grants through them. Closing it closes what it opened.
 */
async function buildSite(config: Config, logger: Logger, database: DbHandle, overrides: { serveSourceAsIs?: boolean }) {
  const storage = createStorage(config.storage);
  const runJobs = config.runJobsInProcess && !overrides.serveSourceAsIs;
  const workBase = path.join(config.dataDir, 'work');
  const workDir = runJobs ? await prepareWorkDir(workBase) : workBase;
  const answers = createAnswerStore(config, await loadSiteId(database.db), logger);
  const notifications = createNotifications({ config, database, storage, logger, changes: answers });
  // The pipeline asks the site's settings for its rungs; they are built with the other services, below.
  let services: Services | null = null;
  const jobs = createJobs({
    config,
    database,
    storage,
    logger,
    workDir,
    events: notifications,
    changes: answers,
    ladderRungs: () => services!.instance.ladderRungs(),
  });
  const { queue, pipeline, publishing, media } = jobs;
  // Some tests skip processing: a stored upload is then served as it is.
  const processing = overrides.serveSourceAsIs ? new ServeSourceAsIs(database.db) : pipeline;
  const uploadStore = await UploadStore.open(config, storage, logger);
  const ctx: AppContext = {
    config,
    db: database.db,
    dialect: database.dialect,
    storage,
    logger,
    queue,
    answers,
    defaultImages: defaultImages(config.publicUrl),
    tmpDir: path.join(config.dataDir, 'tmp'),
  };
  const built = await buildServices(ctx, { processing, publishing, notifications, videoEvents: jobs.videoEvents, uploadStore, media });
  services = built;
  if (await built.instance.demoAccountOn()) await built.startUpAccounts.ensureDemoAccount(config.demo);
  await built.startUpAccounts.ensureAdmins();
  return {
    ctx,
    services: built,
    jobs,
    runJobs,
    close: async () => {
      await queue.close();
      await uploadStore.close();
      await notifications.close();
      await answers.close();
      if (storage instanceof S3Storage) storage.destroy();
      await database.close();
      if (runJobs) await removeWorkDir(workDir);
    },
  };
}
