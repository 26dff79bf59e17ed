import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { AppContext } from '../../src/app-context.js';
import { type AppParts, buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { DestinationStream } from 'pino';
import { createLogger } from '../../src/logger.js';
import { createRuntime } from '../../src/composition/runtime.js';
import type { Services } from '../../src/composition/services.js';
import { createPgDatabase, testDialect } from './databases.js';
import { fixtureFile } from './fixtures.js';
import { FAST_PASSWORD_HASHING } from './processes.js';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** The app's services, as the composition root built them. */
  services: Services;
  /** The parts the app was built of, to build another app over the same context. */
  parts: AppParts;
  dataDir: string;
  /** Sends a request; `as` signs it in as a user made by signUp. */
  call(opts: InjectOptions & { as?: SignedIn }): Promise<TestResponse>;
  signUp(overrides?: Partial<{ username: string; email: string; password: string; fullName: string }>): Promise<SignedIn>;
  close(): Promise<void>;
}

export interface SignedIn {
  id: string;
  username: string;
  email: string;
  password: string;
  cookies: Record<string, string>;
  accessToken: string;
  refreshToken: string;
}

export type TestResponse = LightMyRequestResponse & { body: string; data: any; message: string };

let counter = 0;

/**
 * A whole app on a fresh database (SQLite file, or a new PostgreSQL database when TEST_DB=postgres)
 * and a fresh data directory. Rate limits are high so tests do not trip them unless they mean to.
 */
export async function createTestApp(opts: { env?: Record<string, string>; serveSourceAsIs?: boolean; logTo?: DestinationStream } = {}): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-test-'));
  const pg = testDialect === 'postgres' ? await createPgDatabase() : null;
  const config = loadConfig({
    DATA_DIR: dataDir,
    DEMO_ACCOUNT: 'false',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    RATE_LIMIT_AUTH_PER_MINUTE: '100000',
    RATE_LIMIT_SIGNIN_PER_ACCOUNT_PER_HOUR: '100000',
    RATE_LIMIT_UPLOADS_PER_HOUR: '100000',
    RATE_LIMIT_VIEWS_PER_MINUTE: '100000',
    RATE_LIMIT_GENERAL_PER_MINUTE: '1000000',
    // No RTMP listener per test app: the live ingest tests turn it on with a port of their own.
    LIVE_INGEST: 'off',
    ...FAST_PASSWORD_HASHING,
    ...(pg ? { DATABASE_URL: pg.url } : {}),
    // The whole suite can be run with SQLite's read pool on.
    ...(process.env.TEST_SQLITE_READ_WORKERS ? { SQLITE_READ_WORKERS: process.env.TEST_SQLITE_READ_WORKERS } : {}),
    ...opts.env,
  });
  const runtime = await createRuntime(config, createLogger(config.logLevel, opts.logTo), { serveSourceAsIs: opts.serveSourceAsIs ?? true });
  const app = await buildApp(runtime.ctx, runtime.http);
  await app.ready();

  const call: TestApp['call'] = async ({ as, ...req }) => {
    const headers = { ...(req.headers ?? {}) } as Record<string, string>;
    if (as) headers.authorization = `Bearer ${as.accessToken}`;
    const res = await app.inject({ ...req, headers });
    let parsed: any = null;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      /* not JSON: media or HTML */
    }
    return Object.assign(res, { data: parsed?.data, message: parsed?.message });
  };

  const signUp: TestApp['signUp'] = async (overrides = {}) => {
    const n = `${process.pid}${++counter}${Math.floor(Math.random() * 1e4)}`;
    const fields = { username: `user${n}`, email: `user${n}@example.com`, password: 'correct-horse-1', fullName: `User ${n}`, ...overrides };
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const reg = await call({ method: 'POST', url: '/api/v1/users/register', payload: form });
    if (reg.statusCode !== 201) throw new Error(`sign-up failed: ${reg.statusCode} ${reg.body}`);
    const login = await call({
      method: 'POST',
      url: '/api/v1/users/login',
      headers: { 'x-return-tokens': 'true' },
      payload: { email: fields.email, password: fields.password },
    });
    if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
    const cookies = Object.fromEntries(login.cookies.map((c) => [c.name, c.value]));
    return {
      id: login.data.user._id,
      username: login.data.user.username,
      email: fields.email,
      password: fields.password,
      cookies,
      accessToken: login.data.accessToken,
      refreshToken: login.data.refreshToken,
    };
  };

  return {
    app,
    ctx: runtime.ctx,
    services: runtime.services,
    parts: runtime.http,
    dataDir,
    call,
    signUp,
    async close() {
      await app.close();
      await runtime.close();
      await pg?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A multipart body from fields and fixture files ({ field: 'image.png' | 'clip.mp4' | path }). */
export async function multipart(fields: Record<string, string>, files: Record<string, string> = {}): Promise<FormData> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [k, name] of Object.entries(files)) {
    const file = await fixtureFile(name);
    form.append(k, new File([await fs.readFile(file)], path.basename(file), { type: mimeOf(file) }));
  }
  return form;
}

function mimeOf(file: string) {
  if (file.endsWith('.png')) return 'image/png';
  if (file.endsWith('.jpg')) return 'image/jpeg';
  if (file.endsWith('.webp')) return 'image/webp';
  if (file.endsWith('.mp4')) return 'video/mp4';
  return 'application/octet-stream';
}
