import path from 'node:path';
import type { Logger } from 'pino';
import { type AppContext, createAppContext } from './app-context.js';
import type { Config } from './config.js';
import { openDatabase } from './db/client.js';
import { createJobs } from './composition/jobs.js';
import { prepareWorkDir, removeWorkDir } from './jobs/work-dir.js';
import { createStorage } from './storage/create-storage.js';
import { S3Storage } from './storage/s3-storage.js';
import { scheduleHousekeeping } from './housekeeping.js';
import { createNotifications } from './modules/notifications/create-notifications.js';
import { ServeSourceAsIs } from './modules/pipeline/serve-source-as-is.js';
import { UploadStore } from './modules/uploads/upload-store.js';
import { createAnswerStore } from './lib/create-answer-store.js';
import { loadSiteId } from './modules/users/settings.repository.js';

export interface Runtime {
  ctx: AppContext;
  close(): Promise<void>;
}

/** Opens the database (running migrations), storage and queue that one process of the site needs. */
export async function createRuntime(config: Config, logger: Logger, overrides: { serveSourceAsIs?: boolean } = {}): Promise<Runtime> {
  const database = await openDatabase(config, { onIdleError: (err) => logger.warn({ err }, 'database connection dropped') });
  const storage = createStorage(config.storage);
  const runJobs = config.runJobsInProcess && !overrides.serveSourceAsIs;
  const workBase = path.join(config.dataDir, 'work');
  const workDir = runJobs ? await prepareWorkDir(workBase) : workBase;
  const answers = createAnswerStore(config, await loadSiteId(database.db), logger);
  const notifications = createNotifications({ config, database, storage, logger, changes: answers });
  const jobs = createJobs({ config, database, storage, logger, workDir, events: notifications, changes: answers });
  const { queue, pipeline, publishing } = jobs;
  // Some tests skip processing: a stored upload is then served as it is.
  const processing = overrides.serveSourceAsIs ? new ServeSourceAsIs(database.db) : pipeline;
  const uploadStore = await UploadStore.open(config, storage, logger);
  const ctx = await createAppContext({ config, database, storage, logger, processing, queue, publishing, uploadStore, notifications, answers });
  if (await ctx.instance.demoAccountOn()) await ctx.users.ensureDemoAccount(config.demo);
  await ctx.users.ensureAdmins();
  const stopHousekeeping = scheduleHousekeeping(ctx);
  if (runJobs) await queue.start(jobs.handlers(), { concurrency: config.jobConcurrency });
  const stopTrending = runJobs ? jobs.trending.schedule() : () => {};
  return {
    ctx,
    close: async () => {
      stopTrending();
      await stopHousekeeping();
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
