import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDatabase } from '../../test/support/databases.js';
import { openDatabase } from './client.js';
import { backupBeforeMigrating } from './pre-migrate-backup.js';

/** The backup a start takes before migrating a database that holds data, on both databases, and when it fails. */
const plan = { pending: ['0043_sqlite_search_words'], applied: ['0001_initial'] };
const at = () => new Date('2026-11-27T03:15:00.123Z');
let dir: string;
let file: string;
const sqlite = () => ({ kind: 'sqlite' as const, file, readWorkers: 0 });

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  return { lines, logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }) };
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-pre-migrate-backup-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe('on SQLite', () => {
  beforeAll(async () => {
    file = path.join(dir, 'site', 'reelhouse.db');
    const handle = await openDatabase({ database: { kind: 'sqlite', file } });
    await sql`INSERT INTO settings (key, value) VALUES ('kept', 'yes')`.execute(handle.db);
    await handle.close();
  });

  it('copies the database with the online backup API into a dated directory and logs where, with what is pending', async () => {
    const backups = { dir: path.join(dir, 'backups'), beforeMigrate: true };
    const { lines, logger } = capturingLogger();
    await backupBeforeMigrating({ database: sqlite(), backups }, logger, at)!(plan);
    const copy = path.join(backups.dir, 'reelhouse-20261127-031500-before-migration', 'database.sqlite');
    expect(await fs.readdir(path.dirname(copy))).toEqual(['database.sqlite']);
    expect((await fs.stat(path.dirname(copy))).mode & 0o777).toBe(0o700);
    const db = new SQLite(copy, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.prepare(`SELECT value FROM settings WHERE key = 'kept'`).get()).toEqual({ value: 'yes' });
    } finally {
      db.close();
    }
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'database backed up before migrating', backup: copy, pending: plan.pending }));
  });

  it('takes none for a new database, or when turned off', async () => {
    const backups = { dir: path.join(dir, 'none'), beforeMigrate: true };
    const { logger } = capturingLogger();
    await backupBeforeMigrating({ database: sqlite(), backups }, logger, at)!({ pending: ['0001_initial'], applied: [] });
    await expect(fs.stat(backups.dir)).rejects.toThrow(/ENOENT/);
    expect(backupBeforeMigrating({ database: sqlite(), backups: { ...backups, beforeMigrate: false } }, logger)).toBeUndefined();
  });

  it('fails in one line, leaving nothing behind, when the backup cannot be written', async () => {
    const blocker = path.join(dir, 'not-a-directory');
    await fs.writeFile(blocker, '');
    const { logger } = capturingLogger();
    const hook = backupBeforeMigrating({ database: sqlite(), backups: { dir: blocker, beforeMigrate: true } }, logger, at)!;
    await expect(hook(plan)).rejects.toThrow(/^Database backup before migrating failed: .*ENOTDIR.*; nothing was migrated$/);
  });
});

describe('on PostgreSQL', () => {
  let pgDb: Awaited<ReturnType<typeof createPgDatabase>>;
  beforeAll(async () => {
    pgDb = await createPgDatabase();
    const handle = await openDatabase({ database: { kind: 'postgres', url: pgDb.url } });
    await handle.close();
  });
  afterAll(() => pgDb?.drop());

  it('dumps the database with pg_dump in its custom format', async () => {
    const backups = { dir: path.join(dir, 'pg-backups'), beforeMigrate: true };
    const { lines, logger } = capturingLogger();
    await backupBeforeMigrating({ database: { kind: 'postgres' as const, url: pgDb.url }, backups }, logger, at)!(plan);
    const dump = path.join(backups.dir, 'reelhouse-20261127-031500-before-migration', 'database.pgdump');
    expect((await fs.readFile(dump)).subarray(0, 5).toString()).toBe('PGDMP');
    expect(lines).toContainEqual(expect.objectContaining({ backup: dump }));
  });

  it("fails in one line with pg_dump's reason, leaving nothing behind", async () => {
    const backups = { dir: path.join(dir, 'pg-failed'), beforeMigrate: true };
    const url = new URL(pgDb.url);
    url.pathname = '/reelhouse_no_such_database';
    const { logger } = capturingLogger();
    const hook = backupBeforeMigrating({ database: { kind: 'postgres' as const, url: url.toString() }, backups }, logger, at)!;
    const err = await hook(plan).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/^Database backup before migrating failed: pg_dump failed .*reelhouse_no_such_database.*; nothing was migrated$/);
    expect(err?.message).not.toContain('\n');
    expect(await fs.readdir(backups.dir)).toEqual([]);
  });
});
