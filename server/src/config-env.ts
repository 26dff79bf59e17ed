import { Cron } from 'croner';
import { z } from 'zod';
import { OidcProvidersSetting } from './oidc-providers-setting.js';
import { parseProxyTrust, ProxyTrustError } from './proxy-trust.js';

// What the environment may say: every setting's type, limits and default, and the message a bad
// value gets. config.ts turns what passes into the Config the site is built from.

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
export const Env = z.object({
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
export const SECRET_BEARING = new Set(['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'S3_SECRET_ACCESS_KEY', 'DEMO_PASSWORD', 'OIDC_PROVIDERS']);

/** The names of every setting read from the environment. */
export const SETTING_NAMES: readonly string[] = Env.keyof().options;
