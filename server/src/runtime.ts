import type { Logger } from 'pino';
import { type AppContext, createAppContext } from './app-context.js';
import type { Config } from './config.js';
import { openDatabase } from './db/client.js';
import { ServeSourceAsIs } from './jobs/video-processing.js';
import { LocalStorage } from './storage/local-storage.js';

export interface Runtime {
  ctx: AppContext;
  close(): Promise<void>;
}

/** Opens the database (running migrations), storage and queue that one process of the site needs. */
export async function createRuntime(config: Config, logger: Logger, overrides: { serveSourceAsIs?: boolean } = {}): Promise<Runtime> {
  const database = await openDatabase(config);
  const storage = new LocalStorage(config.storage.kind === 'local' ? config.storage.root : '', config.storage.publicBaseUrl);
  // The media pipeline plugs in here; until then a stored upload is served as it is.
  const processing = new ServeSourceAsIs(database.db);
  void overrides;
  const ctx = await createAppContext({ config, database, storage, logger, processing });
  if (config.demo.enabled) await ctx.users.ensureDemoAccount(config.demo);
  return {
    ctx,
    close: async () => {
      await database.close();
    },
  };
}
