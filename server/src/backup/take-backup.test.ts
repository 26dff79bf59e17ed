import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DbHandle, openDatabase } from '../db/client.js';
import { LocalStorage } from '../storage/local-storage.js';
import { BackupRunsRepository } from './backup-runs.repository.js';
import { takeBackup } from './take-backup.js';

let dir = '';
let database: DbHandle;
let deps: Parameters<typeof takeBackup>[0];
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-take-backup-'));
  const config = {
    database: { kind: 'sqlite', file: path.join(dir, 'reelhouse.db') },
    storage: { kind: 'local', root: path.join(dir, 'media'), publicBaseUrl: null },
  } as const;
  database = await openDatabase({ database: config.database });
  deps = { database, storage: new LocalStorage(config.storage.root), config, runs: new BackupRunsRepository(database.db) };
});
afterAll(async () => {
  await database?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

it('takes a scheduled turn once: a second taker gets null and leaves nothing behind', async () => {
  const to = path.join(dir, 'backups');
  const phases: string[] = [];
  const first = await takeBackup({ ...deps, onProgress: (p) => phases.push(p.phase) }, { to, trigger: 'scheduled', slot: 1_000 });
  expect(first).toMatchObject({ path: expect.stringMatching(/reelhouse-\d{8}-\d{6}-scheduled$/) });
  expect(phases).toContain('database');
  expect(await takeBackup(deps, { to, trigger: 'scheduled', slot: 1_000 })).toBeNull();
  expect(await fs.readdir(to)).toEqual([path.basename(first!.path)]);
  expect((await deps.runs.list(10)).map((r) => [r.slot, r.status, r.path])).toEqual([[1_000, 'ok', first!.path]]);
});

it('two backups in the same second get names of their own', async () => {
  const to = path.join(dir, 'same-second');
  const [a, b] = await Promise.all([takeBackup(deps, { to, trigger: 'manual' }), takeBackup(deps, { to, trigger: 'manual' })]);
  expect(a!.path).not.toBe(b!.path);
  expect((await fs.readdir(to)).filter((n) => n.endsWith('.partial'))).toEqual([]);
});

it('a failed backup is recorded failed and leaves no folder', async () => {
  const to = path.join(dir, 'failing');
  const broken = { ...deps, config: { ...deps.config, database: { kind: 'sqlite' as const, file: path.join(dir, 'no-such.db') } } };
  await expect(takeBackup(broken, { to, trigger: 'manual' })).rejects.toThrow();
  expect(await fs.readdir(to)).toEqual([]);
  expect((await deps.runs.list(1))[0]).toMatchObject({ status: 'failed', error: expect.any(String) });
});
