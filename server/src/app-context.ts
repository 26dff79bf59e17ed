import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { DbHandle } from './db/client.js';
import type { JobQueue } from './jobs/job-types.js';
import type { VideoProcessing } from './jobs/video-processing.js';
import type { PublishScheduler } from './modules/videos/scheduled-publishing.js';
import { SessionService } from './modules/users/session.service.js';
import { SessionsRepository } from './modules/users/sessions.repository.js';
import { loadSigningSecret } from './modules/users/settings.repository.js';
import { UsersRepository } from './modules/users/users.repository.js';
import { UsersService } from './modules/users/users.service.js';
import type { Storage } from './storage/storage.js';
import { type DefaultImages, defaultImages as siteDefaultImages } from './lib/default-images.js';
import type { NotificationsService } from './modules/notifications/notifications.service.js';
import { InstanceService } from './modules/instance/instance.service.js';
import { InstanceSettingsRepository } from './modules/instance/instance-settings.repository.js';
import type { UploadStore } from './modules/uploads/upload-store.js';
import type { AnswerStore } from './lib/answer-store.js';

/** Everything a request handler may need, built once per process. */
export interface AppContext {
  config: Config;
  db: DbHandle['db'];
  dialect: DbHandle['dialect'];
  storage: Storage;
  logger: Logger;
  /** Where uploads land before they are checked and moved to storage. */
  tmpDir: string;
  processing: VideoProcessing;
  /** The job queue, for what admins see of it and the failed jobs they send back. */
  queue: JobQueue;
  /** Durable jobs that turn scheduled videos public on time. */
  publishing: PublishScheduler;
  /** Resumable uploads' bytes while they arrive. */
  uploadStore: UploadStore;
  users: UsersService;
  sessions: SessionService;
  /** Images of accounts that chose none, absolute when PUBLIC_URL is set. */
  defaultImages: DefaultImages;
  /** The site's settings that admins edit (name, sign-up mode, limits). */
  instance: InstanceService;
  /** Notifications: created by the modules whose events they tell of, delivered live by its bus. */
  notifications: NotificationsService;
  /**
   * Signed-out visitors' answers to hot public reads, and the one place every service tells of a
   * write those answers could show (`answers.changed()`).
   */
  answers: AnswerStore;
}

export async function createAppContext(deps: {
  config: Config;
  database: DbHandle;
  storage: Storage;
  logger: Logger;
  processing: VideoProcessing;
  queue: JobQueue;
  publishing: PublishScheduler;
  uploadStore: UploadStore;
  notifications: NotificationsService;
  answers: AnswerStore;
}): Promise<AppContext> {
  const { config, database, storage, logger, processing, queue, publishing, uploadStore, notifications, answers } = deps;
  const defaultImages = siteDefaultImages(config.publicUrl);
  // The two lean on each other: sign-in asks the settings about the demo account, and turning it on creates it.
  const sessions = new SessionService(new SessionsRepository(database.db), await loadSigningSecret(database.db), {
    reuseGraceMs: config.refreshReuseGraceMs,
  });
  let users: UsersService | null = null;
  const instance = new InstanceService({
    settings: new InstanceSettingsRepository(database.db), config,
    ensureDemoAccount: () => users!.ensureDemoAccount(config.demo), changes: answers, forgetLiveSessions: () => sessions.forgetLiveSessions(),
  });
  users = new UsersService({
    users: new UsersRepository(database.db), storage, logger, adminEmails: config.adminEmails, defaultImages, demoAccountOn: () => instance.demoAccountOn(), changes: answers,
  });
  return {
    config, db: database.db, dialect: database.dialect, storage, logger, processing, queue, publishing, uploadStore, users, sessions, defaultImages, notifications,
    instance, answers,
    tmpDir: path.join(config.dataDir, 'tmp'),
  };
}
