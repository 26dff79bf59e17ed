import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { DbHandle } from './db/client.js';
import type { JobQueue } from './jobs/job-types.js';
import type { AnswerStore } from './lib/answer-store.js';
import type { DefaultImages } from './lib/default-images.js';
import type { Storage } from './storage/storage.js';

/**
 * The infrastructure of one process, built once: what every layer may lean on. Services are not
 * here: the composition root (composition/) builds them and hands each what it needs.
 */
export interface AppContext {
  config: Config;
  db: DbHandle['db'];
  dialect: DbHandle['dialect'];
  storage: Storage;
  logger: Logger;
  /** Where uploads land before they are checked and moved to storage. */
  tmpDir: string;
  /** The job queue, for what admins see of it and the failed jobs they send back. */
  queue: JobQueue;
  /** Images of accounts that chose none, absolute when PUBLIC_URL is set. */
  defaultImages: DefaultImages;
  /**
   * Signed-out visitors' answers to hot public reads, and the one place every service tells of a
   * write those answers could show (`answers.changed()`).
   */
  answers: AnswerStore;
}
