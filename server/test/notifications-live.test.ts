import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../src/app-context.js';
import type { Database } from '../src/db/schema.js';
import { createPgDatabase } from './support/databases.js';
import { ApiClient, buildServer, freePort, MAIN_JS, type RunningProcess, startProcess, waitForHealthy } from './support/processes.js';
import { seedVideo } from './support/seed.js';
import { openSse } from './support/sse.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Two API processes on one PostgreSQL database and one Redis: a notification created by whichever
 * process handles the event reaches the recipient's stream held by the other one.
 */
describe('live notifications across two API processes on PostgreSQL and Redis', () => {
  let pgDb: Awaited<ReturnType<typeof createPgDatabase>>;
  let db: Kysely<Database>;
  const procs: RunningProcess[] = [];
  const dirs: string[] = [];
  let a: string;
  let b: string;

  beforeAll(async () => {
    const built = buildServer();
    pgDb = await createPgDatabase();
    await built;
    const common = {
      DATABASE_URL: pgDb.url,
      REDIS_URL,
      DEMO_ACCOUNT: 'false',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RUN_JOBS_IN_PROCESS: 'false',
      RATE_LIMIT_AUTH_PER_MINUTE: '10000',
      RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
    };
    const urls: string[] = [];
    for (const name of ['api-a', 'api-b']) {
      const port = await freePort();
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-notify-'));
      dirs.push(dir);
      const proc = startProcess(name, MAIN_JS, { ...common, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir });
      procs.push(proc);
      urls.push(`http://127.0.0.1:${port}`);
      // One at a time: the first runs the migrations.
      await waitForHealthy(new ApiClient(urls.at(-1)!), proc);
    }
    [a, b] = urls as [string, string];
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: pgDb.url, max: 2 }) }) });
  }, 240_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await db?.destroy();
    await pgDb?.drop();
    await Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true })));
  });

  it('a comment posted through one process reaches the owner on the other within a second', async () => {
    const owner = new ApiClient(a);
    const commenter = new ApiClient(a);
    await owner.signUp();
    await commenter.signUp();
    const me = (await owner.call('GET', '/api/v1/users/user/current')).json.data;
    // Straight into the database the two processes share; nothing of theirs has cached this channel yet.
    const video = await seedVideo({ db, answers: { changed: async () => {} } } as unknown as AppContext, me._id);

    const stream = await openSse(`${b}/api/v1/notifications/stream`, { authorization: `Bearer ${owner.accessToken}` });
    expect(stream.status).toBe(200);
    expect((await stream.next('ready')).data).toEqual({ unreadCount: 0 });

    const started = Date.now();
    const posted = await commenter.call('POST', `/api/v1/comments/${video.id}`, { content: 'from process A' });
    expect(posted.status).toBe(201);
    const event = await stream.next('notification', 1000);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(1000);
    expect(event.data).toMatchObject({ unreadCount: 1, notification: { kind: 'video_comment', comment: { content: 'from process A' } } });

    // And the other way round: the owner answers on B, the commenter listening on A hears it.
    const back = await openSse(`${a}/api/v1/notifications/stream`, { authorization: `Bearer ${commenter.accessToken}` });
    await back.next('ready');
    const reply = await new ApiClient(b).call(
      'POST',
      `/api/v1/comments/${video.id}`,
      { content: 'from process B', parentId: posted.json.data._id },
      { authorization: `Bearer ${owner.accessToken}` },
    );
    expect(reply.status).toBe(201);
    expect((await back.next('notification', 1000)).data.notification).toMatchObject({ kind: 'comment_reply', comment: { content: 'from process B' } });
    stream.close();
    back.close();
  }, 60_000);
});
