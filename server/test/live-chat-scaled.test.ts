import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema.js';
import { createPgDatabase } from './support/databases.js';
import { ApiClient, buildServer, freePort, MAIN_JS, type RunningProcess, startProcess, waitForHealthy } from './support/processes.js';
import { until } from './support/rtmp-push.js';
import { openSse, type SseClient } from './support/sse.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Two API processes on one PostgreSQL database and one Redis: a chat message posted through one
 * reaches the streams held by the other, the viewers of both are summed, and a process that dies
 * stops counting. The slow mode and the bans set through one hold on the other.
 */
describe('live chat across two API processes on PostgreSQL and Redis', () => {
  let pgDb: Awaited<ReturnType<typeof createPgDatabase>>;
  let db: Kysely<Database>;
  const procs: RunningProcess[] = [];
  const dirs: string[] = [];
  const streams: SseClient[] = [];
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
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-chat-'));
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
    for (const s of streams) s.close();
    await Promise.all(procs.map((p) => p.stop()));
    await db?.destroy();
    await pgDb?.drop();
    await Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true })));
  });

  const open = async (url: string, headers: Record<string, string> = {}) => {
    const s = await openSse(url, headers);
    streams.push(s);
    expect(s.status).toBe(200);
    return s;
  };

  it('a slow mode and a ban set through one process hold for messages posted through the other', async () => {
    const owner = new ApiClient(a);
    const viewerOnB = new ApiClient(b);
    await owner.signUp();
    await viewerOnB.signUp();
    const made = await owner.call('POST', '/api/v1/live', { title: 'Rules across processes', description: 'Kept in order' });
    expect(made.status).toBe(201);
    const videoId = made.json.data.video._id as string;
    await db.updateTable('lives').set({ status: 'live', started_at: Date.now() }).where('video_id', '=', videoId).execute();

    expect((await owner.call('PATCH', `/api/v1/live/${videoId}`, { slowModeSeconds: 30 })).status).toBe(200);
    const first = await viewerOnB.call('POST', `/api/v1/live/${videoId}/chat`, { content: 'First, through B' });
    expect(first.status).toBe(201);
    const second = await viewerOnB.call('POST', `/api/v1/live/${videoId}/chat`, { content: 'Too soon, through B' });
    expect(second.status).toBe(429);
    expect(second.json).toMatchObject({ success: false, message: expect.stringMatching(/^Slow mode: wait 30 seconds between messages/) });
    // The owner, through B too, never waits.
    const ownerOnB = new ApiClient(b);
    ownerOnB.accessToken = owner.accessToken;
    expect((await ownerOnB.call('POST', `/api/v1/live/${videoId}/chat`, { content: 'The owner, twice' })).status).toBe(201);
    expect((await ownerOnB.call('POST', `/api/v1/live/${videoId}/chat`, { content: 'The owner, again' })).status).toBe(201);

    expect((await owner.call('PATCH', `/api/v1/live/${videoId}`, { slowModeSeconds: 0 })).status).toBe(200);
    const banned = await owner.call('POST', `/api/v1/live/${videoId}/chat/bans`, { userId: first.json.data.author._id, seconds: 600 });
    expect(banned.status).toBe(201);
    const refused = await viewerOnB.call('POST', `/api/v1/live/${videoId}/chat`, { content: 'After the ban, through B' });
    expect(refused.status).toBe(403);
    expect(refused.json.success).toBe(false);
    const history = await new ApiClient(b).call('GET', `/api/v1/live/${videoId}/chat`);
    expect(history.json.data.messages.map((m: { content: string }) => m.content)).toEqual(['First, through B', 'The owner, twice', 'The owner, again']);
  }, 60_000);

  it('messages and deletions reach the streams of the other process; viewers on both are summed, and a dead process stops counting', async () => {
    const owner = new ApiClient(a);
    const viewer = new ApiClient(a);
    await owner.signUp();
    await viewer.signUp();
    const made = await owner.call('POST', '/api/v1/live', { title: 'Across processes', description: 'Two of them' });
    expect(made.status).toBe(201);
    const videoId = made.json.data.video._id as string;
    // On air, as an ingest marks it: the viewer count is kept for lives on air.
    await db.updateTable('lives').set({ status: 'live', started_at: Date.now() }).where('video_id', '=', videoId).execute();

    const onB = await open(`${b}/api/v1/live/${videoId}/chat/stream`);
    expect((await onB.next('ready')).data.viewers).toBe(1);
    const onA = await open(`${a}/api/v1/live/${videoId}/chat/stream`, { authorization: `Bearer ${viewer.accessToken}` });
    // A counts B's viewer, which B reported when it joined.
    expect((await onA.next('ready')).data.viewers).toBe(2);
    expect((await onB.next('viewers', 8000)).data).toEqual({ viewers: 2 });
    const column = () => db.selectFrom('lives').select('viewers').where('video_id', '=', videoId).executeTakeFirstOrThrow();
    await until('lives.viewers to be 2', column, (r) => r.viewers === 2, 15_000);
    const listed = await new ApiClient(b).call('GET', '/api/v1/videos/live');
    expect(listed.json.data.videos.find((v: { _id: string }) => v._id === videoId)?.live.viewers).toBe(2);

    const started = Date.now();
    const posted = await viewer.call('POST', `/api/v1/live/${videoId}/chat`, { content: 'Posted through A' });
    expect(posted.status).toBe(201);
    expect((await onB.next('message', 1000)).data).toMatchObject({ _id: posted.json.data._id, content: 'Posted through A' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await onA.next('message', 1000)).data._id).toBe(posted.json.data._id);

    const deleted = await new ApiClient(b).call('DELETE', `/api/v1/live/${videoId}/chat/${posted.json.data._id}`, undefined, {
      authorization: `Bearer ${owner.accessToken}`,
    });
    expect(deleted.status).toBe(200);
    expect((await onA.next('deleted', 1000)).data).toEqual({ _id: posted.json.data._id });

    // A third viewer on A, then A dies without a word: its two viewers stop counting within seconds.
    const third = await open(`${a}/api/v1/live/${videoId}/chat/stream`);
    expect((await third.next('ready')).data.viewers).toBe(3);
    expect((await onB.next('viewers', 8000)).data).toEqual({ viewers: 3 });
    await procs[0]!.kill();
    expect((await onB.next('viewers', 25_000)).data).toEqual({ viewers: 1 });
    await until('lives.viewers back to 1', column, (r) => r.viewers === 1, 15_000);
  }, 120_000);
});
