import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Cron } from 'croner';
import { z } from 'zod';
import { OidcProvidersSetting } from './oidc-providers-setting.js';
import { parseProxyTrust, ProxyTrustError } from './proxy-trust.js';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { error: 'must be true or false' })
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));
const int = (min: number) => z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(min);
const url = z.url({ error: 'must be a URL' });
/** scheme://host[:port] and nothing more, as browsers send it in the Origin header. */
const origin = z.string().refine((v) => {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === v.replace(/\/$/, '');
  } catch {
    return false;
  }
}, 'must be origins like https://app.example.com, comma-separated');
const originList = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  )
  .pipe(z.array(origin))
  .transform((list) => list.map((o) => o.replace(/\/$/, '')));

/** Every setting, with its default. .env.example lists the same names. */
const Env = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: int(0).max(65535).default(7000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres://')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis://')
    .optional(),
  S3_ENDPOINT: url.optional(),
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.default(true),
  MEDIA_BASE_URL: url.optional(),
  FFMPEG_PATH: z.string().default('ffmpeg'),
  FFPROBE_PATH: z.string().default('ffprobe'),
  MEDIA_MEMORY_LIMIT_MB: int(0).default(4096),
  MAX_VIDEO_BYTES: int(1).default(4 * 1024 ** 3),
  MAX_IMAGE_BYTES: int(1).default(10 * 1024 ** 2),
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const emails = v
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean);
      const bad = emails.find((e) => !z.email().safeParse(e).success);
      if (bad) ctx.addIssue({ code: 'custom', message: `"${bad}" is not an email address` });
      return emails;
    }),
  DEFAULT_QUOTA_BYTES: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(-1, 'must be -1 (unlimited) or more').default(-1),
  DEFAULT_DAILY_QUOTA_BYTES: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(-1, 'must be -1 (unlimited) or more').default(-1),
  UPLOAD_EXPIRY_HOURS: z.coerce.number({ error: 'must be a number' }).positive('must be positive').default(24),
  LIVE_RTMP_PORT: int(1).max(65535).default(1935),
  LIVE_INGEST: z.enum(['in-process', 'off'], { error: 'must be in-process or off' }).default('in-process'),
  LIVE_RTMP_URL: z.url({ protocol: /^rtmps?$/, error: 'must be an rtmp:// or rtmps:// address, e.g. rtmp://ingest.example.com:1935/live' }).optional(),
  LIVE_RECONNECT_SECONDS: int(1).default(30),
  LIVE_DVR_MINUTES: int(1).default(120),
  LIVE_CHAT_SLOW_MODE_SECONDS: int(0).max(3600).default(0),
  DEMO_ACCOUNT: bool.default(true),
  DEMO_EMAIL: z.email({ error: 'must be an email address' }).default('demo@reelhouse.dev'),
  DEMO_PASSWORD: z.string().min(8, 'must be at least 8 characters').default('demo-account-2026'),
  DEMO_CONTENT_TTL_HOURS: z.coerce.number({ error: 'must be a number' }).positive('must be positive').default(24),
  RUN_JOBS_IN_PROCESS: bool.optional(),
  JOB_CONCURRENCY: int(1).default(1),
  PLAYABLE_JOB_CONCURRENCY: int(1).default(2),
  LIVE_JOB_CONCURRENCY: int(1).default(1),
  FEDERATION_JOB_CONCURRENCY: int(1).default(8),
  BACKGROUND_JOB_NICE: int(0).max(19).default(10),
  KEEP_ORIGINAL_UPLOADS: bool.default(false),
  RATE_LIMIT_AUTH_PER_MINUTE: int(1).default(10),
  RATE_LIMIT_REFRESH_PER_MINUTE: int(1).default(300),
  RATE_LIMIT_SIGNIN_PER_ACCOUNT_PER_HOUR: int(1).default(30),
  REFRESH_REUSE_GRACE_SECONDS: int(0).max(300).default(10),
  // argon2id's floor is 8 KiB per lane (4 lanes); the defaults are the library's.
  PASSWORD_HASH_MEMORY_KIB: int(1024).max(4_194_304).default(65_536),
  PASSWORD_HASH_ITERATIONS: int(1).max(100).default(3),
  PUBLIC_URL: url.refine((v) => /^https?:\/\//.test(v), 'must start with http:// or https://').optional(),
  ALLOWED_ORIGINS: originList.optional(),
  EMBED_ALLOWED_ORIGINS: originList.optional(),
  FEDERATION: bool.optional(),
  FEDERATION_ALLOW_PRIVATE_ADDRESSES: bool.default(false),
  FEDERATION_INBOX_PER_DOMAIN_PER_MINUTE: int(1).default(600),
  RATE_LIMIT_UPLOADS_PER_HOUR: int(1).default(30),
  RATE_LIMIT_VIEWS_PER_MINUTE: int(1).default(60),
  RATE_LIMIT_GENERAL_PER_MINUTE: int(1).default(600),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v, ctx) => {
      try {
        return parseProxyTrust(v);
      } catch (err) {
        if (!(err instanceof ProxyTrustError)) throw err;
        ctx.addIssue({ code: 'custom', message: err.message });
        return z.NEVER;
      }
    }),
  IDLE_TIMEOUT_SECONDS: int(1).default(120),
  SQLITE_READ_WORKERS: int(0).max(16).optional(),
  PAGE_BUCKET_SPACING: int(2).default(1000),
  ANSWER_CACHE: bool.default(true),
  ANSWER_CACHE_MB: int(1).max(4096).default(32),
  ANSWER_CACHE_TTL_SECONDS: int(1).max(300).default(5),
  TRENDING_REFRESH_SECONDS: int(1).max(86_400).default(300),
  BACKUP_DIR: z.string().optional(),
  BACKUP_CRON: z
    .string()
    .refine((v) => {
      try {
        new Cron(v, { paused: true }).stop();
        return true;
      } catch {
        return false;
      }
    }, 'must be a cron pattern like "0 3 * * *" (minute hour day-of-month month day-of-week)')
    .optional(),
  BACKUP_KEEP: int(1).default(7),
  BACKUP_BEFORE_MIGRATE: bool.optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/]/, 'must start with smtp:// or smtps://')
    .refine((v) => URL.canParse(v), 'must be a URL like smtp://user:password@mail.example.com:587')
    .optional(),
  MAIL_FROM: z.string().trim().min(3).optional(),
  PASSWORD_RESET_MINUTES: int(1)
    .max(7 * 24 * 60)
    .default(60),
  EMAIL_VERIFICATION: z.enum(['off', 'optional', 'required'], { error: 'must be off, optional or required' }).optional(),
  OIDC_PROVIDERS: OidcProvidersSetting.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
});

/** Settings whose values may hold a password or a key: an error about one never repeats its value. */
const SECRET_BEARING = new Set(['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'S3_SECRET_ACCESS_KEY', 'DEMO_PASSWORD', 'OIDC_PROVIDERS']);

/** The names of every setting read from the environment. */
export const SETTING_NAMES: readonly string[] = Env.keyof().options;

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
