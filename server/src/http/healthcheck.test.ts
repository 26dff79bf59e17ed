import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/test-app.js';

/**
 * The healthcheck says whether the database answers, not how long its queue is: it reads through a
 * connection of its own, so queries queued for the others (every read worker busy on SQLite, every
 * pooled connection busy on PostgreSQL) do not hold it up.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { SQLITE_READ_WORKERS: '1' } });
});
afterAll(() => t.close());

/** A read that keeps its connection busy for a while: a long count on SQLite, a sleep on PostgreSQL. */
function slowRead(): Promise<unknown> {
  const query =
    t.ctx.dialect === 'postgres'
      ? sql`SELECT pg_sleep(0.6)`
      : sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000) SELECT count(*) FROM n`;
  return t.ctx.db.selectNoFrom(sql`(${query})`.as('x')).execute();
}

describe('GET /api/v1/healthcheck', () => {
  it('answers ahead of reads queued for every connection', async () => {
    const finished: string[] = [];
    // More slow reads than connections: some wait in the queue behind the others.
    const reads = Array.from({ length: t.ctx.dialect === 'postgres' ? 12 : 3 }, (_, i) => slowRead().then(() => finished.push(`read ${i}`)));
    await new Promise((r) => setTimeout(r, 50));
    const health = await t.call({ method: 'GET', url: '/api/v1/healthcheck' });
    finished.push('healthcheck');
    await Promise.all(reads);
    expect(health.statusCode).toBe(200);
    expect(health.data).toEqual({ database: true, storage: true });
    expect(finished[0]).toBe('healthcheck');
  }, 30_000);

  it('says within seconds that the storage is gone, and that it is back', async () => {
    const { storage } = t.ctx.config;
    if (storage.kind !== 'local') return expect(storage.kind).toBe('local');
    // The storage's answer is kept for a second (lib/kept-check.ts): ask until it changes, for a while.
    const healthOnceItIs = async (status: number) => {
      for (const end = Date.now() + 5_000; ; await new Promise((r) => setTimeout(r, 100))) {
        const res = await t.call({ method: 'GET', url: '/api/v1/healthcheck' });
        if (res.statusCode === status || Date.now() > end) return res;
      }
    };
    expect((await healthOnceItIs(200)).statusCode).toBe(200);
    const aside = `${storage.root}-aside`;
    fs.renameSync(storage.root, aside);
    try {
      const gone = await healthOnceItIs(503);
      expect(gone.statusCode).toBe(503);
      expect(gone.data).toEqual({ database: true, storage: false });
    } finally {
      fs.renameSync(aside, storage.root);
    }
    const back = await healthOnceItIs(200);
    expect(back.statusCode).toBe(200);
    expect(back.data).toEqual({ database: true, storage: true });
  }, 30_000);
});
