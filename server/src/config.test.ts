import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('has working defaults: SQLite and media under ./data, port 7000, jobs in-process', () => {
    const c = loadConfig({});
    expect(c.port).toBe(7000);
    expect(c.database).toEqual({ kind: 'sqlite', file: path.resolve('data/reelhouse.db') });
    expect(c.storage).toMatchObject({ kind: 'local', root: path.resolve('data/media') });
    expect(c.runJobsInProcess).toBe(true);
    expect(c.limits).toEqual({ maxVideoBytes: 4 * 1024 ** 3, maxImageBytes: 10 * 1024 ** 2 });
    expect(c.keepOriginalUploads).toBe(false);
    expect(loadConfig({ KEEP_ORIGINAL_UPLOADS: 'true' }).keepOriginalUploads).toBe(true);
  });

  it('switches to PostgreSQL, Redis workers and S3 when told', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://u@h/db', REDIS_URL: 'redis://h:6379',
      S3_ENDPOINT: 'http://s3.local:9000', S3_BUCKET: 'media', MEDIA_BASE_URL: 'https://cdn.example.com',
    });
    expect(c.database.kind).toBe('postgres');
    expect(c.runJobsInProcess).toBe(false);
    expect(c.storage).toMatchObject({ kind: 's3', bucket: 'media', publicBaseUrl: 'https://cdn.example.com' });
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(7000);
  });

  it.each([
    [{ PORT: 'seventy' }, 'Invalid setting PORT="seventy": must be a number'],
    [{ DATABASE_URL: 'mysql://x' }, 'Invalid setting DATABASE_URL="mysql://x": must start with postgres://'],
    [{ DEMO_ACCOUNT: 'maybe' }, 'Invalid setting DEMO_ACCOUNT="maybe": must be true or false'],
    [{ S3_ENDPOINT: 'http://s3.local' }, 'Invalid setting S3_BUCKET="": required when S3_ENDPOINT is set'],
  ])('rejects %o with one clear line', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
