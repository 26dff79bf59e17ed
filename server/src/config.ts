import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Env, SECRET_BEARING } from './config-env.js';

export { SETTING_NAMES } from './config-env.js';

export type Config = ReturnType<typeof loadConfig>;

/** The web client built next to the server in this checkout (server/src or server/dist -> web/dist). */
const BUNDLED_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Loads ./.env into the environment, if there is one; real environment variables win. */
export function loadDotEnv(file = '.env') {
  if (fs.existsSync(file)) process.loadEnvFile(file);
}

export class ConfigError extends Error {}

/** Reads and validates the environment once. A bad value is one clear line, not a stack trace. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = Env.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    // A value that may carry a password (a database, Redis or mail server's URL, a secret key) is not repeated.
    const shown = SECRET_BEARING.has(name) ? '(hidden)' : JSON.stringify(cleaned[name] ?? '');
    throw new ConfigError(`Invalid setting ${name}=${shown}: ${issue.message}`);
  }
  const e = parsed.data;
  if (e.S3_ENDPOINT && !e.S3_BUCKET) throw new ConfigError('Invalid setting S3_BUCKET="": required when S3_ENDPOINT is set');
  if (e.EMAIL_VERIFICATION && e.EMAIL_VERIFICATION !== 'off' && !e.SMTP_URL) {
    throw new ConfigError(`Invalid setting EMAIL_VERIFICATION="${e.EMAIL_VERIFICATION}": needs SMTP_URL, to send the mails`);
  }
  // Other servers address a channel by its site's public address: without one there is nothing to give them.
  if (e.FEDERATION && !e.PUBLIC_URL) throw new ConfigError('Invalid setting FEDERATION="true": needs PUBLIC_URL, the address other servers reach this site at');
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = e.PUBLIC_URL ? e.PUBLIC_URL.replace(/\/+$/, '') : null;
  // With PUBLIC_URL and no CDN, media the API serves gets absolute URLs under it.
  const mediaBaseUrl = e.MEDIA_BASE_URL ?? (publicUrl ? `${publicUrl}/media` : null);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: e.DATABASE_URL
      ? ({ kind: 'postgres', url: e.DATABASE_URL } as const)
      : // Read-only connections in worker threads for SELECTs, so a slow read does not stop the
        // event loop; 0 runs every statement on the main thread's one connection.
        ({ kind: 'sqlite', file: path.join(dataDir, 'reelhouse.db'), readWorkers: e.SQLITE_READ_WORKERS ?? defaultReadWorkers() } as const),
    redisUrl: e.REDIS_URL ?? null,
    storage: e.S3_ENDPOINT
      ? ({
          kind: 's3',
          endpoint: e.S3_ENDPOINT,
          bucket: e.S3_BUCKET!,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
          publicBaseUrl: mediaBaseUrl,
        } as const)
      : ({ kind: 'local', root: path.join(dataDir, 'media'), publicBaseUrl: mediaBaseUrl } as const),
    ffmpegPath: e.FFMPEG_PATH,
    ffprobePath: e.FFPROBE_PATH,
    /** Address-space ceiling of every ffprobe/ffmpeg run, in MiB; 0 for none. */
    mediaMemoryLimitMb: e.MEDIA_MEMORY_LIMIT_MB,
    /** Accounts with these emails are admins: made so when they sign up, and at every start. */
    adminEmails: e.ADMIN_EMAILS,
    limits: { maxVideoBytes: e.MAX_VIDEO_BYTES, maxImageBytes: e.MAX_IMAGE_BYTES },
    /** Rows between kept boundaries of a video list's sort order: a deep page skips at most about twice this. */
    pageBucketSpacing: e.PAGE_BUCKET_SPACING,
    /** Storage quotas every user has unless their own row says otherwise; -1 is unlimited. */
    quotas: { totalBytes: e.DEFAULT_QUOTA_BYTES, dailyBytes: e.DEFAULT_DAILY_QUOTA_BYTES },
    /** A resumable upload not turned into a video within this time is removed. */
    uploadExpiryMs: e.UPLOAD_EXPIRY_HOURS * 3600_000,
    /** Lives: where encoders publish over RTMP, and how long one may be away. */
    live: {
      rtmpPort: e.LIVE_RTMP_PORT,
      /** in-process: this process runs the RTMP server; off: none here (`npm run ingest` may, elsewhere). */
      ingest: e.LIVE_INGEST,
      /** What encoders are told to publish to, when not this site's host at LIVE_RTMP_PORT. */
      rtmpUrl: e.LIVE_RTMP_URL ? e.LIVE_RTMP_URL.replace(/\/+$/, '') : null,
      /** An encoder away longer than this ends its live; one back sooner continues it. */
      reconnectMs: e.LIVE_RECONNECT_SECONDS * 1000,
      /** How far back viewers can go in a live. */
      dvrMinutes: e.LIVE_DVR_MINUTES,
      /** Seconds a viewer waits between two chat messages in a live that has not set its own; 0 is off. */
      chatSlowModeSeconds: e.LIVE_CHAT_SLOW_MODE_SECONDS,
    },
    demo: {
      enabled: e.DEMO_ACCOUNT,
      email: e.DEMO_EMAIL.toLowerCase(),
      password: e.DEMO_PASSWORD,
      contentTtlMs: e.DEMO_CONTENT_TTL_HOURS * 3600_000,
    },
    /** Without Redis the API process runs the jobs itself; with Redis, `npm run worker` does unless told otherwise. */
    runJobsInProcess: e.RUN_JOBS_IN_PROCESS ?? !e.REDIS_URL,
    /**
     * Slots per lane in each process that runs jobs: fast-start remuxes, live renditions,
     * storyboards plus ladders (JOB_CONCURRENCY), so playable work never queues behind a ladder, and
     * deliveries to other servers, which mostly wait on the network.
     */
    jobConcurrency: {
      playable: e.PLAYABLE_JOB_CONCURRENCY,
      live: e.LIVE_JOB_CONCURRENCY,
      background: e.JOB_CONCURRENCY,
      federation: e.FEDERATION_JOB_CONCURRENCY,
    },
    /** Niceness of storyboard and ladder ffmpeg processes, so they yield the CPU to playable work. */
    backgroundJobNice: e.BACKGROUND_JOB_NICE,
    /** Keep each upload after its video is processed; by default only the outputs stay. */
    keepOriginalUploads: e.KEEP_ORIGINAL_UPLOADS,
    rateLimits: {
      authPerMinute: e.RATE_LIMIT_AUTH_PER_MINUTE,
      refreshPerMinute: e.RATE_LIMIT_REFRESH_PER_MINUTE,
      /** Sign-in attempts on one account from all addresses together. */
      signInPerAccountPerHour: e.RATE_LIMIT_SIGNIN_PER_ACCOUNT_PER_HOUR,
      uploadsPerHour: e.RATE_LIMIT_UPLOADS_PER_HOUR,
      viewsPerMinute: e.RATE_LIMIT_VIEWS_PER_MINUTE,
      generalPerMinute: e.RATE_LIMIT_GENERAL_PER_MINUTE,
    },
    /** A just-rotated refresh token presented again within this window gets the same successor. */
    refreshReuseGraceMs: e.REFRESH_REUSE_GRACE_SECONDS * 1000,
    /** argon2id's cost for passwords: memory (KiB) and passes. */
    passwordCost: { memoryKib: e.PASSWORD_HASH_MEMORY_KIB, iterations: e.PASSWORD_HASH_ITERATIONS },
    /** The site's public address, e.g. https://video.example.com: absolute URLs, and the site's own origin. */
    publicUrl,
    /** Other origins a web client may be served from (credentialed CORS); none by default. */
    allowedOrigins: e.ALLOWED_ORIGINS ?? [],
    /** Sites that may frame the embed page (/embed/{id}); any site when unset. */
    embedAncestors: e.EMBED_ALLOWED_ORIGINS?.length ? e.EMBED_ALLOWED_ORIGINS : ['*'],
    /**
     * ActivityPub with other sites (docs/federation.md): on by default when PUBLIC_URL is set.
     * Remote servers on private or loopback addresses are refused unless allowPrivateAddresses,
     * so a remote actor cannot make this site fetch from its own network.
     */
    federation: {
      enabled: e.FEDERATION ?? Boolean(publicUrl),
      allowPrivateAddresses: e.FEDERATION_ALLOW_PRIVATE_ADDRESSES,
      /** Activities one remote server (by the host of the key it signs with) may post to the inboxes a minute. */
      inboxPerDomainPerMinute: e.FEDERATION_INBOX_PER_DOMAIN_PER_MINUTE,
    },
    /** Which proxies in front may say who the client is and how it asked (X-Forwarded-*). */
    trustProxy: e.TRUST_PROXY,
    /** A connection that sends nothing for this long (a stalled upload, a slow-loris) is closed. */
    idleTimeoutMs: e.IDLE_TIMEOUT_SECONDS * 1000,
    /**
     * Signed-out visitors' answers to the hot public reads, kept for a few seconds and dropped by
     * any write they could show (in process memory, or in Redis when REDIS_URL is set).
     */
    answerCache: { enabled: e.ANSWER_CACHE, maxBytes: e.ANSWER_CACHE_MB * 1024 * 1024, ttlMs: e.ANSWER_CACHE_TTL_SECONDS * 1000 },
    /** How often the trending list is worked out again: how long a newly popular video may wait to show. */
    trendingRefreshMs: e.TRENDING_REFRESH_SECONDS * 1000,
    backups: {
      /** Where `npm run backup`, the scheduled backups and the backups taken before a migration go. */
      dir: path.resolve(e.BACKUP_DIR ?? path.join(dataDir, 'backups')),
      /** When the process that runs jobs takes a backup (a cron pattern, the server's local time); none when unset. */
      cron: e.BACKUP_CRON ?? null,
      /** How many scheduled backups are kept: the oldest beyond this are removed after a good one. */
      keep: e.BACKUP_KEEP,
      /** A start that is about to migrate a database holding data backs the database up first (SQLite by default). */
      beforeMigrate: e.BACKUP_BEFORE_MIGRATE ?? !e.DATABASE_URL,
    },
    /** Mail (password resets, address checks); null without SMTP_URL, and then none of it is offered. */
    email: e.SMTP_URL
      ? {
          smtpUrl: e.SMTP_URL,
          from: e.MAIL_FROM ?? `Reelhouse <no-reply@${new URL(publicUrl ?? e.SMTP_URL).hostname || 'localhost'}>`,
        }
      : null,
    /** off: addresses are never checked; optional: checked, unchecked accounts still sign in; required: they cannot. */
    emailVerification: e.EMAIL_VERIFICATION ?? (e.SMTP_URL ? 'optional' : 'off'),
    /** How long a password-reset link works. */
    passwordResetMs: e.PASSWORD_RESET_MINUTES * 60_000,
    /** OpenID Connect providers people may sign in with (OIDC_PROVIDERS); none by default. */
    oidcProviders: e.OIDC_PROVIDERS ?? [],
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? BUNDLED_WEB_DIST),
  };
}

/** For process entry points: the configuration, or one line on stderr and exit code 1. */
export function loadConfigOrExit(): Config {
  try {
    loadDotEnv();
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

/**
 * One read worker per core, up to four: reads then use every core while the main thread parses,
 * serializes and writes, and more threads than cores would only take turns.
 */
function defaultReadWorkers(): number {
  return Math.max(1, Math.min(4, os.availableParallelism()));
}
