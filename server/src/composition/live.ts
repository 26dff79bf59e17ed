import path from 'node:path';
import type { Logger } from 'pino';
import type { AppContext } from '../app-context.js';
import { ownerTag } from '../lib/process-owner.js';
import type { MediaTools } from '../media/media-tools.js';
import { LiveBroadcasts } from '../modules/live/live-broadcasts.js';
import type { LiveEvents } from '../modules/live/live-events.js';
import { LiveOnAir } from '../modules/live/live-on-air.js';
import { LiveReplay } from '../modules/live/live-replay.js';
import type { VideoProcessing } from '../modules/videos/video-processing.js';
import type { VideosRepository } from '../modules/videos/videos.repository.js';
import { LiveRepository } from '../modules/live/live.repository.js';
import { LiveService, type LiveServiceDeps } from '../modules/live/live.service.js';
import { RtmpIngest } from '../modules/live/rtmp-ingest.js';
import { loadSigningSecret } from '../modules/users/settings.repository.js';
import { SecretBox } from '../modules/users/totp.js';

export interface Live {
  service: LiveService;
  /** The RTMP server of this process and the broadcasts it feeds; null when LIVE_INGEST is off. */
  ingest: { server: RtmpIngest; broadcasts: LiveBroadcasts } | null;
}

/** The lives module: its service, and the ingest when this process runs one (started by the runtime). */
export async function buildLive(
  ctx: AppContext,
  jobs: { media: MediaTools; processing: VideoProcessing },
  from: Pick<LiveServiceDeps, 'videos' | 'users' | 'present'> & { videoRows: VideosRepository; events: LiveEvents },
): Promise<Live> {
  const { config, logger } = ctx;
  const lives = new LiveRepository(ctx.db);
  const { videoRows, ...serviceDeps } = from;
  const replay = new LiveReplay({
    lives,
    videos: videoRows,
    processing: jobs.processing,
    storage: ctx.storage,
    changes: ctx.answers,
    logger,
    tmpDir: ctx.tmpDir,
    events: from.events,
  });
  let ingest: Live['ingest'] = null;
  if (config.live.ingest === 'in-process') {
    const port = config.live.rtmpPort;
    const broadcasts = new LiveBroadcasts({
      tools: jobs.media,
      storage: ctx.storage,
      logger,
      workDir: path.join(config.dataDir, 'work', ownerTag()),
      rtmpUrl: (key) => `rtmp://127.0.0.1:${port}/live/${key}`,
      dvrMinutes: config.live.dvrMinutes,
    });
    const server = new RtmpIngest({
      port,
      host: config.host,
      reconnectMs: config.live.reconnectMs,
      logger,
      handlers: new LiveOnAir({ lives, changes: ctx.answers, logger, broadcasts, replay, events: from.events }),
    });
    ingest = { server, broadcasts };
  }
  const control = ingest && {
    disconnect: (videoId: string) => ingest.server.disconnect(videoId),
    end: async (videoId: string) => {
      await ingest.server.disconnect(videoId);
      await ingest.broadcasts.stop(videoId);
    },
  };
  const service = new LiveService({
    ...serviceDeps,
    replay,
    box: new SecretBox(await loadSigningSecret(ctx.db), 'live stream keys'),
    lives,
    storage: ctx.storage,
    changes: ctx.answers,
    rtmp: { port: config.live.rtmpPort, publicUrl: config.publicUrl },
    chatSlowModeSeconds: config.live.chatSlowModeSeconds,
    ...(control ? { ingest: control } : {}),
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
    await ingest.server.start();
  } catch (err) {
    logger.error({ err, port }, 'the live ingest (RTMP) could not start');
    return async () => {};
  }
  return async () => {
    await ingest.server.stop();
    await ingest.broadcasts.stopAll();
  };
}
