import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { DbHandle } from '../../db/client.js';
import { defaultImages } from '../../lib/default-images.js';
import type { PersonalChanges } from '../../lib/public-changes.js';
import type { Storage } from '../../storage/storage.js';
import { createNoticeBus } from './notice-bus.js';
import { NotificationsRepository } from './notifications.repository.js';
import { NotificationsService } from './notifications.service.js';

/**
 * The notifications of one process (API or worker), on Redis pub/sub when REDIS_URL is set; their
 * changes are told to `changes` (the process's answer store).
 */
export function createNotifications(deps: {
  config: Config;
  database: DbHandle;
  storage: Storage;
  logger: Logger;
  changes: PersonalChanges;
}): NotificationsService {
  const { config, database, storage, logger, changes } = deps;
  return new NotificationsService({
    notifications: new NotificationsRepository(database.db),
    storage,
    bus: createNoticeBus(config.redisUrl, logger),
    logger,
    defaultImages: defaultImages(config.publicUrl),
    changes,
  });
}
