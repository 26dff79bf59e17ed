import type { Logger } from 'pino';
import { type AppContext, createAppContext } from './app-context.js';
import type { Config } from './config.js';
import { openDatabase } from './db/client.js';
import path from 'node:path';
import { createQueue } from './jobs/create-queue.js';
import { VideoPipeline } from './jobs/video-pipeline.js';
import { ServeSourceAsIs } from './jobs/video-processing.js';
import { prepareWorkDir } from './jobs/work-dir.js';
import { createStorage } from './storage/create-storage.js';
import { S3Storage } from './storage/s3-storage.js';
import { scheduleHousekeeping } from './housekeeping.js';

export interface Runtime {
  ctx: AppContext;
  close(): Promise<void>;
}

/** Opens the database (running migrations), storage and queue that one process of the site needs. */
export async function createRuntime(config: Config, logger: Logger, overrides: { serveSourceAsIs?: boolean } = {}): Promise<Runtime> {
  const database = await openDatabase(config, { onIdleError: (err) => logger.warn({ err }, 'database connection dropped') });
  const storage = createStorage(config.storage);
  const runJobs = config.runJobsInProcess && !overrides.serveSourceAsIs;
  let pipeline: VideoPipeline | null = null;
  const queue = createQueue({
    redisUrl: config.redisUrl,
    db: database.db,
    dialect: database.dialect,
    logger,
    // A job that failed for good without its handler knowing (its process died on the last attempt) still marks the video.
    onSettled: (event) => {
      pipeline?.onJobSettled(event).catch((err) => logger.error({ err, job: event.id }, 'could not record a job failure'));
    },
  });
  const workBase = path.join(config.dataDir, 'work');
  pipeline = new VideoPipeline({
    db: database.db,
    storage,
    queue,
    ffmpegPath: config.ffmpegPath,
    ffprobePath: config.ffprobePath,
    logger,
    workDir: runJobs ? await prepareWorkDir(workBase) : workBase,
  });
  // Some tests skip processing: a stored upload is then served as it is.
  const processing = overrides.serveSourceAsIs ? new ServeSourceAsIs(database.db) : pipeline;
  const ctx = await createAppContext({ config, database, storage, logger, processing });
  if (config.demo.enabled) await ctx.users.ensureDemoAccount(config.demo);
  const stopHousekeeping = scheduleHousekeeping(ctx);
  if (runJobs) await queue.start(pipeline.handlers(), { concurrency: config.jobConcurrency });
  return {
    ctx,
    close: async () => {
      await stopHousekeeping();
      await queue.close();
      if (storage instanceof S3Storage) storage.destroy();
      await database.close();
    },
  };
}
