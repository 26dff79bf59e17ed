import path from 'node:path';
import type { Logger } from 'pino';
import type { AppContext } from '../app-context.js';
import { ownerTag } from '../lib/process-owner.js';
import type { MediaTools } from '../media/media-tools.js';
import { BrowserPublishing } from '../modules/live/browser-publishing.js';
import { LiveBroadcasts } from '../modules/live/live-broadcasts.js';
import type { LiveEvents } from '../modules/live/live-events.js';
import { LiveOnAir } from '../modules/live/live-on-air.js';
import { LiveReplay } from '../modules/live/live-replay.js';
import { LiveLimits, type LiveLimitSettings } from '../modules/live/live-limits.js';
import type { VideoProcessing } from '../modules/videos/video-processing.js';
import type { VideosRepository } from '../modules/videos/videos.repository.js';
import { LiveRepository } from '../modules/live/live.repository.js';
import { type LiveIngestControl, LiveService, type LiveServiceDeps } from '../modules/live/live.service.js';
import { obeyIngestCommands, RedisIngestControl } from '../modules/live/ingest-commands.js';
import { RtmpIngest } from '../modules/live/rtmp-ingest.js';
import { loadSigningSecret } from '../modules/users/settings.repository.js';
import { SecretBox } from '../modules/users/totp.js';

/** How often the lives on air are checked against the longest a live may last. */
const OVERLONG_CHECK_MS = 5000;

export interface Live {
  service: LiveService;
  /** The RTMP server of this process and the broadcasts it feeds; null when LIVE_INGEST is off. */
  ingest: { server: RtmpIngest; broadcasts: LiveBroadcasts; control?: LiveIngestControl } | null;
  /**
   * The browsers publishing through this process: relayed to its own ingest, or with LIVE_INGEST
   * off to the site's ingest at LIVE_RTMP_URL (`npm run ingest` elsewhere); null with neither.
   */
  browsers: BrowserPublishing | null;
  /** With Redis: how this process's rules reach the site's ingests. */
  commands: RedisIngestControl | null;
}

/** The lives module: its service, and the ingest when this process runs one (started by the runtime). */
export async function buildLive(
  ctx: AppContext,
  jobs: { media: MediaTools; processing: VideoProcessing },
  from: Pick<LiveServiceDeps, 'videos' | 'users' | 'present'> & {
    videoRows: VideosRepository;
    events: LiveEvents;
    liveSettings: () => Promise<LiveLimitSettings>;
  },
): Promise<Live> {
  const { config, logger } = ctx;
  const lives = new LiveRepository(ctx.db);
  const { videoRows, liveSettings, ...serviceDeps } = from;
  const limits = new LiveLimits({ settings: liveSettings, lives, account: async (id) => (await from.users.findById(id)) ?? null });
  const replay = new LiveReplay({
    lives,
    videos: videoRows,
    processing: jobs.processing,
    storage: ctx.storage,
    changes: ctx.answers,
    logger,
    tmpDir: ctx.tmpDir,
    tools: jobs.media,
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
      sourceVideo: (videoId) => server.sourceVideo(videoId),
      flvStream: (videoId) => server.flvStream(videoId),
    });
    const server: RtmpIngest = new RtmpIngest({
      port,
      host: config.host,
      reconnectMs: config.live.reconnectMs,
      logger,
      handlers: new LiveOnAir({ lives, changes: ctx.answers, logger, broadcasts, replay, events: from.events, limits }),
    });
    ingest = { server, broadcasts };
  }
  const relayTo = ingest ? `rtmp://127.0.0.1:${config.live.rtmpPort}/live` : config.live.rtmpUrl;
  const browsers = relayTo ? new BrowserPublishing({ tools: jobs.media, logger, rtmpUrl: (key) => `${relayTo}/${key}` }) : null;
  const local: LiveIngestControl | null = ingest && {
    disconnect: (videoId: string) => ingest.server.disconnect(videoId),
    end: async (videoId: string) => {
      await ingest.server.disconnect(videoId);
      await ingest.broadcasts.stop(videoId);
    },
  };
  if (ingest && local) ingest.control = local;
  // With Redis, the encoder may be on any ingest of the site (this process's, another API
  // process's, or `npm run ingest` on another machine): commands go to all of them through Redis,
  // this process's own included.
  const remote = config.redisUrl ? new RedisIngestControl(config.redisUrl, logger) : null;
  const control = remote ?? local;
  const service = new LiveService({
    ...serviceDeps,
    replay,
    limits,
    box: new SecretBox(await loadSigningSecret(ctx.db), 'live stream keys'),
    lives,
    storage: ctx.storage,
    changes: ctx.answers,
    rtmp: { port: config.live.rtmpPort, publicUrl: config.publicUrl, url: config.live.rtmpUrl },
    chatSlowModeSeconds: config.live.chatSlowModeSeconds,
    browserPublishing: browsers !== null,
    ...(control ? { ingest: control } : {}),
  });
  return { service, ingest, browsers, commands: remote };
}

/**
 * Starts the ingest, if this process runs one, and answers how to stop it. A taken port leaves the
 * site running without lives rather than not at all, and says so in the log.
 */
export async function startIngest(live: Live, logger: Logger, port: number, redisUrl: string | null): Promise<() => Promise<void>> {
  const ingest = live.ingest;
  const closeRelaysAndCommands = async () => {
    await live.browsers?.stopAll();
    await live.commands?.close();
  };
  if (!ingest) return closeRelaysAndCommands;
  try {
    await ingest.server.start();
  } catch (err) {
    logger.error({ err, port }, 'the live ingest (RTMP) could not start');
    return closeRelaysAndCommands;
  }
  const stopObeying = redisUrl && ingest.control ? await obeyIngestCommands(redisUrl, ingest.control, logger) : async () => {};
  // The longest a live may last (an admin's setting) ends the lives of this ingest that reach it.
  const overlong = setInterval(() => {
    live.service
      .endOverlong(ownerTag())
      .then((ended) => ended.length > 0 && logger.info({ videoIds: ended }, 'lives ended: they reached the longest a live may last'))
      .catch((err: unknown) => logger.error({ err }, 'ending lives that reached the longest a live may last failed'));
  }, OVERLONG_CHECK_MS);
  overlong.unref();
  return async () => {
    await stopObeying();
    clearInterval(overlong);
    // The relays first, so that they end as encoders going away while the ingest still listens.
    await live.browsers?.stopAll();
    await ingest.server.stop();
    await ingest.broadcasts.stopAll();
    await live.commands?.close();
  };
}
