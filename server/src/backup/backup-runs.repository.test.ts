import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDatabase } from '../../test/support/databases.js';
import { type DbHandle, openDatabase } from '../db/client.js';
import { ownerTag } from '../lib/process-owner.js';
import { BackupRunsRepository } from './backup-runs.repository.js';

/** The record of backups, on both databases: each test file run covers SQLite and PostgreSQL. */
describe.each(['sqlite', 'postgres'] as const)('BackupRunsRepository on %s', (kind) => {
  let database: DbHandle;
  let runs: BackupRunsRepository;
  let cleanUp: () => Promise<void>;

  beforeAll(async () => {
    if (kind === 'sqlite') {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-backup-runs-'));
      database = await openDatabase({ database: { kind: 'sqlite', file: path.join(dir, 'reelhouse.db') } });
      cleanUp = () => fs.rm(dir, { recursive: true, force: true });
    } else {
      const pg = await createPgDatabase();
      database = await openDatabase({ database: { kind: 'postgres', url: pg.url } });
      cleanUp = pg.drop;
    }
    runs = new BackupRunsRepository(database.db);
  });
  afterAll(async () => {
    await database?.close();
    await cleanUp?.();
  });

  it('records a run from start to finish, newest first', async () => {
    const a = await runs.start({ trigger: 'manual', path: '/b/a.partial', owner: ownerTag(), now: 1000 });
    const b = await runs.start({ trigger: 'before-migration', path: '/b/b.partial', owner: ownerTag(), now: 2000 });
    expect(a).toBeTruthy();
    await runs.finish(a!, { bytes: 1234, path: '/b/a' }, 1500);
    await runs.fail(b!, 'disk full', 2500);
    const listed = await runs.list(10);
    expect(listed.map((r) => [r.id, r.status, r.path, r.bytes, r.error, r.finished_at])).toEqual([
      [b, 'failed', '/b/b.partial', null, 'disk full', 2500],
      [a, 'ok', '/b/a', 1234, null, 1500],
    ]);
    expect(await runs.list(1)).toHaveLength(1);
  });

  it('gives each scheduled slot to one run and tells a taken slot apart', async () => {
    const taken = await Promise.all(Array.from({ length: 4 }, () => runs.start({ trigger: 'scheduled', path: '/b/s', owner: ownerTag(), slot: 42 })));
    expect(taken.filter((id) => id !== null)).toHaveLength(1);
    expect(await runs.start({ trigger: 'scheduled', path: '/b/s', owner: ownerTag(), slot: 43 })).toBeTruthy();
  });

  it('marks a removed backup once', async () => {
    const id = (await runs.start({ trigger: 'scheduled', path: '/b/r', owner: ownerTag(), slot: 7 }))!;
    await runs.markRemoved(id, 5000);
    await runs.markRemoved(id, 6000);
    expect((await runs.get(id))!.removed_at).toBe(5000);
  });

  it('fails the running runs of processes that are gone, and only those', async () => {
    const dead = (await runs.start({ trigger: 'manual', path: '/b/dead.partial', owner: 'dead-owner' }))!;
    const alive = (await runs.start({ trigger: 'manual', path: '/b/alive.partial', owner: ownerTag() }))!;
    const done = (await runs.start({ trigger: 'manual', path: '/b/done.partial', owner: 'dead-owner' }))!;
    await runs.finish(done, { bytes: 1, path: '/b/done' });
    expect(await runs.failInterrupted(9000, (owner) => owner === 'dead-owner')).toBe(1);
    expect(await runs.get(dead)).toMatchObject({ status: 'failed', error: 'interrupted', finished_at: 9000 });
    expect(await runs.get(alive)).toMatchObject({ status: 'running', error: null });
    expect(await runs.get(done)).toMatchObject({ status: 'ok' });
    // With the real judge, this process's own run stays running.
    expect(await runs.failInterrupted()).toBe(0);
  });
});
