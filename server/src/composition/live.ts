import type { Logger } from 'pino';
import type { AppContext } from '../app-context.js';
import { LiveOnAir } from '../modules/live/live-on-air.js';
import { LiveRepository } from '../modules/live/live.repository.js';
import { LiveService, type LiveServiceDeps } from '../modules/live/live.service.js';
import { RtmpIngest } from '../modules/live/rtmp-ingest.js';

export interface Live {
  service: LiveService;
  /** The RTMP server of this process; null when LIVE_INGEST is off. */
  ingest: RtmpIngest | null;
}

/** The lives module: its service, and the ingest when this process runs one (started by the runtime). */
export function buildLive(ctx: AppContext, from: Pick<LiveServiceDeps, 'videos' | 'users' | 'present' | 'box'>): Live {
  const { config, logger } = ctx;
  const lives = new LiveRepository(ctx.db);
  const ingest =
    config.live.ingest === 'in-process'
      ? new RtmpIngest({
          port: config.live.rtmpPort,
          host: config.host,
          reconnectMs: config.live.reconnectMs,
          logger,
          handlers: new LiveOnAir({ lives, changes: ctx.answers, logger }),
        })
      : null;
  const service = new LiveService({
    ...from,
    lives,
    storage: ctx.storage,
    changes: ctx.answers,
    rtmp: { port: config.live.rtmpPort, publicUrl: config.publicUrl },
    ...(ingest ? { ingest } : {}),
  });
  return { service, ingest };
}

/**
 * Starts the ingest, if this process runs one, and answers how to stop it. A taken port leaves the
 * site running without lives rather than not at all, and says so in the log.
 */
export async function startIngest(live: Live, logger: Logger, port: number): Promise<() => Promise<void>> {
  const ingest = live.ingest;
  if (!ingest) return async () => {};
  try {
    await ingest.start();
  } catch (err) {
    logger.error({ err, port }, 'the live ingest (RTMP) could not start');
    return async () => {};
  }
  return () => ingest.stop();
}
