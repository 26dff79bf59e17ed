import path from 'node:path';
import { settleInterruptedBackups } from './backup/backup-folder.js';
import { BackupRunsRepository } from './backup/backup-runs.repository.js';
import { loadConfigOrExit } from './config.js';
import { openDatabase } from './db/client.js';
import { buildFederation } from './composition/federation.js';
import { createJobs } from './composition/jobs.js';
import { runStartUpWork } from './composition/start-up.js';
import { prepareWorkDir, removeWorkDir, scheduleWorkDirSweep } from './jobs/work-dir.js';
import { createNotifications } from './modules/notifications/create-notifications.js';
import { createLogger } from './logger.js';
import { createAnswerStore } from './lib/create-answer-store.js';
import { loadSiteId } from './modules/users/settings.repository.js';
import { createStorage } from './storage/create-storage.js';
import { S3Storage } from './storage/s3-storage.js';

/**
 * `npm run worker`: processes media jobs and nothing else. Run as many as the machines allow; with
 * REDIS_URL they share BullMQ's queue, without it they share the database's job table.
 */
async function main() {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel).child({ process: 'worker' });
  const database = await openDatabase(config, { migrate: false, onIdleError: (err) => logger.warn({ err }, 'database connection dropped') });
  // A worker's start-up work (migrations, the site's id) takes its turn with the other processes'.
  const siteId = await runStartUpWork(config, database, logger, () => loadSiteId(database.db));
  const storage = createStorage(config.storage);
  if (!(await storage.healthy())) logger.warn({ storage: storage.kind }, 'storage is not reachable yet');
  // Removes the directories of stopped processes, now and every few minutes, and makes this one's.
  const workBase = path.join(config.dataDir, 'work');
  const workDir = await prepareWorkDir(workBase);
  const stopSweeping = scheduleWorkDirSweep(workBase, logger);
  // A backup killed midway is reported failed, never good; API processes do this in their housekeeping.
  const backups = await settleInterruptedBackups({ runs: new BackupRunsRepository(database.db), backupDir: config.backups.dir });
  if (backups.runs || backups.folders) logger.info(backups, 'interrupted backups settled');

  // Workers only tell changes (a video ready, a scheduled one published, a notification stored):
  // with Redis, every API process drops its kept answers at once; without, theirs expire within
  // the cache's TTL.
  const answers = createAnswerStore(config, siteId, logger);
  // Workers only publish: an upload's outcome reaches its owner's open streams through Redis.
  const notifications = createNotifications({ config, database, storage, logger, changes: answers });
  const jobs = createJobs({ config, database, storage, logger, workDir, events: notifications, changes: answers });
  const { queue } = jobs;
  // Deliveries to other servers are jobs too: a worker signs and sends them like an API process.
  const federation = buildFederation({
    config,
    db: database.db,
    dialect: database.dialect,
    storage,
    queue,
    logger,
    events: jobs.videoEvents,
    commentEvents: notifications,
    changes: answers,
  });
  await queue.start({ ...jobs.handlers(), ...federation?.handlers() }, { concurrency: config.jobConcurrency });
  federation?.start();
  const stopTrending = jobs.trending.schedule();
  const stopBackups = jobs.backups.schedule();
  logger.info({ queue: config.redisUrl ? 'redis' : database.dialect, storage: storage.kind, concurrency: config.jobConcurrency, workDir }, 'worker started');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker shutting down');
    try {
      federation?.close();
      stopTrending();
      stopBackups();
      await stopSweeping();
      await queue.close();
      await notifications.close();
      await answers.close();
      if (storage instanceof S3Storage) storage.destroy();
      await database.close();
      await removeWorkDir(workDir);
    } catch (err) {
      logger.error({ err }, 'unclean shutdown');
      process.exit(1);
    }
    logger.info('worker stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
