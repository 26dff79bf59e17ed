import { loadConfigOrExit } from './config.js';
import { createRuntime } from './composition/runtime.js';
import { createLogger } from './logger.js';

/**
 * `npm run ingest`: the live ingest on its own (the RTMP server on LIVE_RTMP_PORT and one ffmpeg
 * per live), for a site scaled out over several machines: run it on a machine with ffmpeg that
 * encoders can reach, with the site's database, storage and Redis. The API processes (with
 * LIVE_INGEST=off) reach it through Redis; its segments go to the shared storage, from which any
 * API process (or a CDN) serves them. It serves no HTTP and runs no jobs.
 */
async function main() {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel).child({ process: 'ingest' });
  if (!config.redisUrl) {
    console.error(
      'npm run ingest needs REDIS_URL: the API processes reach a separate ingest through Redis. On one machine, `npm start` runs the ingest itself.',
    );
    process.exit(1);
  }
  const runtime = await createRuntime({ ...config, runJobsInProcess: false, live: { ...config.live, ingest: 'in-process' } }, logger);
  if (!runtime.services.live.ingest?.server.listening) {
    // Its reason (a taken port) is in the log line before.
    await runtime.close();
    process.exit(1);
  }
  logger.info({ rtmpPort: config.live.rtmpPort }, 'live ingest process started');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'live ingest shutting down');
    try {
      await runtime.close();
    } catch (err) {
      logger.error({ err }, 'unclean shutdown');
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
