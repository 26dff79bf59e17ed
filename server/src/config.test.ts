import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('has working defaults: SQLite and media under ./data, port 7000, jobs in-process', () => {
    const c = loadConfig({});
    expect(c.port).toBe(7000);
    expect(c.database).toEqual({ kind: 'sqlite', file: path.resolve('data/reelhouse.db'), readWorkers: Math.min(4, os.availableParallelism()) });
    expect(c.storage).toMatchObject({ kind: 'local', root: path.resolve('data/media') });
    expect(c.runJobsInProcess).toBe(true);
    expect(c.limits).toEqual({ maxVideoBytes: 4 * 1024 ** 3, maxImageBytes: 10 * 1024 ** 2 });
    expect(c.keepOriginalUploads).toBe(false);
    expect(loadConfig({ KEEP_ORIGINAL_UPLOADS: 'true' }).keepOriginalUploads).toBe(true);
    expect(c.jobConcurrency).toEqual({ playable: 2, live: 1, background: 1, federation: 8 });
    expect(c.backgroundJobNice).toBe(10);
    expect(c.passwordCost).toEqual({ memoryKib: 65_536, iterations: 3 });
    expect(loadConfig({ PASSWORD_HASH_MEMORY_KIB: '19456', PASSWORD_HASH_ITERATIONS: '2' }).passwordCost).toEqual({ memoryKib: 19_456, iterations: 2 });
    expect(() => loadConfig({ PASSWORD_HASH_MEMORY_KIB: '512' })).toThrow(/PASSWORD_HASH_MEMORY_KIB/);
    expect(loadConfig({ JOB_CONCURRENCY: '3', PLAYABLE_JOB_CONCURRENCY: '4', LIVE_JOB_CONCURRENCY: '2', BACKGROUND_JOB_NICE: '0' })).toMatchObject({
      jobConcurrency: { playable: 4, live: 2, background: 3 },
      backgroundJobNice: 0,
    });
    expect(c.quotas).toEqual({ totalBytes: -1, dailyBytes: -1 });
    expect(c.uploadExpiryMs).toBe(24 * 3600_000);
  });

  it('reads storage quotas and the upload expiry, refusing nonsense in one line', () => {
    const c = loadConfig({ DEFAULT_QUOTA_BYTES: '1000', DEFAULT_DAILY_QUOTA_BYTES: '-1', UPLOAD_EXPIRY_HOURS: '0.5' });
    expect(c.quotas).toEqual({ totalBytes: 1000, dailyBytes: -1 });
    expect(c.uploadExpiryMs).toBe(1800_000);
    expect(() => loadConfig({ DEFAULT_QUOTA_BYTES: '-2' })).toThrow('Invalid setting DEFAULT_QUOTA_BYTES="-2": must be -1 (unlimited) or more');
    expect(() => loadConfig({ UPLOAD_EXPIRY_HOURS: '0' })).toThrow('Invalid setting UPLOAD_EXPIRY_HOURS="0": must be positive');
  });

  it("reads the live chat's default slow mode: 0 (off) unless set, at most an hour", () => {
    expect(loadConfig({}).live.chatSlowModeSeconds).toBe(0);
    expect(loadConfig({ LIVE_CHAT_SLOW_MODE_SECONDS: '15' }).live.chatSlowModeSeconds).toBe(15);
    expect(() => loadConfig({ LIVE_CHAT_SLOW_MODE_SECONDS: '3601' })).toThrow('Invalid setting LIVE_CHAT_SLOW_MODE_SECONDS="3601"');
    expect(() => loadConfig({ LIVE_CHAT_SLOW_MODE_SECONDS: '-1' })).toThrow('Invalid setting LIVE_CHAT_SLOW_MODE_SECONDS="-1"');
  });

  it('switches to PostgreSQL, Redis workers and S3 when told', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://u@h/db',
      REDIS_URL: 'redis://h:6379',
      S3_ENDPOINT: 'http://s3.local:9000',
      S3_BUCKET: 'media',
      MEDIA_BASE_URL: 'https://cdn.example.com',
    });
    expect(c.database.kind).toBe('postgres');
    expect(c.runJobsInProcess).toBe(false);
    expect(c.storage).toMatchObject({ kind: 's3', bucket: 'media', publicBaseUrl: 'https://cdn.example.com' });
  });

  it('reads the public address, the allowed origins and the session and sign-in limits', () => {
    const c = loadConfig({ PUBLIC_URL: 'https://video.example.com/', ALLOWED_ORIGINS: 'https://app.example.com, http://localhost:5173/' });
    expect(c.publicUrl).toBe('https://video.example.com');
    expect(c.allowedOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(c.storage.publicBaseUrl).toBe('https://video.example.com/media');
    expect(loadConfig({ PUBLIC_URL: 'https://video.example.com', MEDIA_BASE_URL: 'https://cdn.example.net' }).storage.publicBaseUrl).toBe(
      'https://cdn.example.net',
    );
    const d = loadConfig({});
    expect([d.publicUrl, d.allowedOrigins, d.refreshReuseGraceMs]).toEqual([null, [], 10_000]);
    expect(d.rateLimits).toMatchObject({ refreshPerMinute: 300, signInPerAccountPerHour: 30 });
  });

  it('federates by default only with a public address, and refuses private addresses unless told', () => {
    expect(loadConfig({}).federation).toEqual({ enabled: false, allowPrivateAddresses: false, inboxPerDomainPerMinute: 600 });
    expect(loadConfig({ PUBLIC_URL: 'https://video.example.com' }).federation).toEqual({
      enabled: true,
      allowPrivateAddresses: false,
      inboxPerDomainPerMinute: 600,
    });
    expect(loadConfig({ FEDERATION_INBOX_PER_DOMAIN_PER_MINUTE: '30' }).federation.inboxPerDomainPerMinute).toBe(30);
    expect(loadConfig({ PUBLIC_URL: 'https://video.example.com', FEDERATION: 'false' }).federation.enabled).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.2:7000', FEDERATION_ALLOW_PRIVATE_ADDRESSES: 'true' }).federation).toEqual({
      enabled: true,
      allowPrivateAddresses: true,
      inboxPerDomainPerMinute: 600,
    });
    expect(() => loadConfig({ FEDERATION: 'true' })).toThrow(
      'Invalid setting FEDERATION="true": needs PUBLIC_URL, the address other servers reach this site at',
    );
    expect(() => loadConfig({ FEDERATION: 'sometimes' })).toThrow('Invalid setting FEDERATION="sometimes": must be true or false');
    expect(() => loadConfig({ FEDERATION_ALLOW_PRIVATE_ADDRESSES: 'lan' })).toThrow(
      'Invalid setting FEDERATION_ALLOW_PRIVATE_ADDRESSES="lan": must be true or false',
    );
  });

  it('lets any site frame the embed page unless EMBED_ALLOWED_ORIGINS names some', () => {
    expect(loadConfig({}).embedAncestors).toEqual(['*']);
    expect(loadConfig({ EMBED_ALLOWED_ORIGINS: 'https://blog.example.com, https://wiki.example.org/' }).embedAncestors).toEqual([
      'https://blog.example.com',
      'https://wiki.example.org',
    ]);
    expect(() => loadConfig({ EMBED_ALLOWED_ORIGINS: 'blog.example.com' })).toThrow(/EMBED_ALLOWED_ORIGINS/);
  });

  it('reads TRUST_PROXY as Fastify does: off, every hop, a hop count, or addresses and ranges', () => {
    expect(loadConfig({}).trustProxy).toEqual({ kind: 'none' });
    for (const off of ['false', 'no', 'off', '0']) expect(loadConfig({ TRUST_PROXY: off }).trustProxy).toEqual({ kind: 'none' });
    for (const all of ['true', 'TRUE', 'yes', 'on']) expect(loadConfig({ TRUST_PROXY: all }).trustProxy).toEqual({ kind: 'all' });
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toEqual({ kind: 'hops', hops: 1 });
    expect(loadConfig({ TRUST_PROXY: ' 2 ' }).trustProxy).toEqual({ kind: 'hops', hops: 2 });
    // A bare number is a hop count, never the address proxy-addr would read into it (0.0.0.10).
    expect(loadConfig({ TRUST_PROXY: '10' }).trustProxy).toEqual({ kind: 'hops', hops: 10 });
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,,::1,fc00::/7,Loopback,uniquelocal' }).trustProxy).toEqual({
      kind: 'addresses',
      addresses: ['127.0.0.1', '10.0.0.0/8', '::1', 'fc00::/7', 'loopback', 'uniquelocal'],
    });
  });

  it.each([
    ['maybe', '"maybe" is not an IP address'],
    ['-1', '"-1" is not an IP address'],
    ['1.5', '"1.5" is not an IP address'],
    ['127.0.0.1,localhost', '"localhost" is not an IP address'],
    ['10.0.0.300', '"10.0.0.300" is not an IP address'],
    ['10.0.0.0/33', '"10.0.0.0/33" is not a range like 10.0.0.0/8'],
    ['1,127.0.0.1', '"1" is not an IP address'],
    [',', 'no address given'],
    ['99999999999999999999', 'must be a small number of proxies, like 1'],
  ])('refuses TRUST_PROXY=%s, saying what it takes', (value, why) => {
    const expected = why.startsWith('must')
      ? `Invalid setting TRUST_PROXY="${value}": ${why}`
      : `Invalid setting TRUST_PROXY="${value}": must be false, true, the number of proxies in front (1), or their addresses and ranges (127.0.0.1,10.0.0.0/8, loopback, uniquelocal): ${why}`;
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(expected);
  });

  it('reads mail settings: checks default to optional with SMTP_URL and off without; checks without mail are refused', () => {
    expect(loadConfig({})).toMatchObject({ email: null, emailVerification: 'off', passwordResetMs: 60 * 60_000 });
    const c = loadConfig({ SMTP_URL: 'smtps://me:pw@mail.example.com:465', PUBLIC_URL: 'https://video.example.com', PASSWORD_RESET_MINUTES: '15' });
    expect(c).toMatchObject({
      email: { smtpUrl: 'smtps://me:pw@mail.example.com:465', from: 'Reelhouse <no-reply@video.example.com>' },
      emailVerification: 'optional',
      passwordResetMs: 15 * 60_000,
    });
    expect(loadConfig({ SMTP_URL: 'smtp://localhost:25', MAIL_FROM: 'Site <a@b.example>', EMAIL_VERIFICATION: 'required' })).toMatchObject({
      email: { from: 'Site <a@b.example>' },
      emailVerification: 'required',
    });
    expect(() => loadConfig({ EMAIL_VERIFICATION: 'required' })).toThrow(
      new ConfigError('Invalid setting EMAIL_VERIFICATION="required": needs SMTP_URL, to send the mails'),
    );
    expect(loadConfig({ EMAIL_VERIFICATION: 'off' }).emailVerification).toBe('off');
    // A bad SMTP_URL is named, but its value (which may hold a password) is not repeated.
    expect(() => loadConfig({ SMTP_URL: 'http://me:secret@mail.example.com' })).toThrow(
      new ConfigError('Invalid setting SMTP_URL=(hidden): must start with smtp:// or smtps://'),
    );
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(7000);
  });

  it.each([
    [{ PORT: 'seventy' }, 'Invalid setting PORT="seventy": must be a number'],
    // Values that may hold a password are named, never repeated.
    [{ DATABASE_URL: 'mysql://root:hunter2@db' }, 'Invalid setting DATABASE_URL=(hidden): must start with postgres://'],
    [{ REDIS_URL: 'http://:hunter2@cache' }, 'Invalid setting REDIS_URL=(hidden): must start with redis://'],
    [{ DEMO_PASSWORD: 'short' }, 'Invalid setting DEMO_PASSWORD=(hidden): must be at least 8 characters'],
    [{ DEMO_ACCOUNT: 'maybe' }, 'Invalid setting DEMO_ACCOUNT="maybe": must be true or false'],
    [{ BACKGROUND_JOB_NICE: '20' }, 'Invalid setting BACKGROUND_JOB_NICE="20": '],
    [{ PLAYABLE_JOB_CONCURRENCY: '0' }, 'Invalid setting PLAYABLE_JOB_CONCURRENCY="0": '],
    [{ S3_ENDPOINT: 'http://s3.local' }, 'Invalid setting S3_BUCKET="": required when S3_ENDPOINT is set'],
    [
      { ALLOWED_ORIGINS: 'https://app.example.com/path' },
      'Invalid setting ALLOWED_ORIGINS="https://app.example.com/path": must be origins like https://app.example.com, comma-separated',
    ],
    [{ PUBLIC_URL: 'ftp://example.com' }, 'Invalid setting PUBLIC_URL="ftp://example.com": must start with http:// or https://'],
    [{ REFRESH_REUSE_GRACE_SECONDS: '-1' }, 'Invalid setting REFRESH_REUSE_GRACE_SECONDS="-1": '],
  ])('rejects %o with one clear line', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
