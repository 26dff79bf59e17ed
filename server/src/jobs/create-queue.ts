import type { Db, Dialect } from '../db/client.js';
import { BullmqQueue } from './bullmq-queue.js';
import type { JobQueue } from './job-types.js';
import { LocalQueue } from './local-queue.js';
import type { QueueLogger, QueueTuning } from './queue-options.js';

export interface CreateQueueOptions extends QueueTuning {
  redisUrl: string | null;
  db: Db;
  dialect: Dialect;
  logger: QueueLogger;
  /** Redis key prefix for BullMQ. */
  prefix?: string;
}

/** BullMQ on Redis when REDIS_URL is set, so many machines share the work; else the app database's job table. */
export function createQueue({ redisUrl, db, dialect, logger, prefix, ...tuning }: CreateQueueOptions): JobQueue {
  if (redisUrl) return new BullmqQueue({ redisUrl, logger, prefix, ...tuning });
  return new LocalQueue({ db, dialect, logger, ...tuning });
}
