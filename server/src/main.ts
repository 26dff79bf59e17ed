import { buildApp } from './app.js';
import { loadConfigOrExit } from './config.js';
import { createLogger } from './logger.js';
import { createRuntime } from './composition/runtime.js';

async function main() {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel);
  const runtime = await createRuntime(config, logger);
  const app = await buildApp(runtime.ctx, runtime.http);
  await app.listen({ port: config.port, host: config.host });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await app.close();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
