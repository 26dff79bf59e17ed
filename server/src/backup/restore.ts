import fs from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Config } from '../config.js';
import { type Db, openDatabase } from '../db/client.js';
import type { Database } from '../db/schema.js';
import type { Storage } from '../storage/storage.js';
import { BackupRunsRepository } from './backup-runs.repository.js';
import { isPartial } from './backup-folder.js';
import { BackupFolderError, type Manifest, MEDIA_DIR, type MediaFileEntry, readManifest, syncDir } from './manifest.js';
import { runPgTool } from '../db/pg-tools.js';
import { checkBackup, type RestoreProgress } from './restore-check.js';
import { SnapshotRepository } from './snapshot.repository.js';

export type { RestoreProgress };

export interface RestoreTarget {
  config: Pick<Config, 'database' | 'storage'>;
  /** The bucket, with media on S3 (it is only read); null with media on local disk, which is written directly. */
  bucket: Storage | null;
}

export interface RestoreResult {
  manifest: Manifest;
  /** Media files put in place (0 on S3, where the bucket is checked, not written). */
  files: number;
}

/**
 * Restores a finished backup into the configured database and media. Nothing is written until the
 * folder has been checked whole (see restore-check.ts) and the target found empty, or `force`
 * given to replace what is there. The run the backup recorded in its own snapshot (still
 * 'running' there) is marked 'ok' in the restored database.
 */
export async function restoreBackup(
  fromArg: string,
  target: RestoreTarget,
  opts: { force: boolean; onProgress?: (p: RestoreProgress) => void },
): Promise<RestoreResult> {
  const from = path.resolve(fromArg);
  if (isPartial(from)) throw new BackupFolderError(`${from} is an unfinished backup (its name ends in .partial): it cannot be restored`);
  const manifest = await readManifest(from);
  const { config, bucket } = target;
  const progress = opts.onProgress ?? (() => {});
  if (manifest.database.kind !== config.database.kind) {
    throw new BackupFolderError(`the backup holds a ${label(manifest.database.kind)} database, and the configured database is ${label(config.database.kind)}`);
  }
  if (manifest.media.kind !== config.storage.kind) {
    throw new BackupFolderError(`the backup's media are ${where(manifest.media.kind)}, and the configured storage is ${where(config.storage.kind)}`);
  }
  const { media } = await checkBackup(from, manifest, bucket, progress);

  const occupied = [...(await databaseContents(config.database)), ...(config.storage.kind === 'local' ? await mediaContents(config.storage.root) : [])];
  if (occupied.length > 0 && !opts.force) {
    throw new BackupFolderError(`the target is not empty: ${occupied.join('; ')}; restore with --force to replace it`);
  }

  progress({ phase: 'database', files: 0, total: 1 });
  const done = { bytes: manifest.database.bytes + manifest.media.list.bytes + (manifest.media.kind === 'local' ? manifest.media.bytes : 0), path: from };
  if (config.database.kind === 'sqlite')
    await restoreSqlite(path.join(from, manifest.database.file), config.database.file, (db) => markRestored(db, manifest, done));
  else await restorePostgres(path.join(from, manifest.database.file), config.database.url, occupied.length > 0, (db) => markRestored(db, manifest, done));

  let files = 0;
  if (config.storage.kind === 'local') {
    const entries = media as MediaFileEntry[];
    for (const sub of ['videos', 'users']) await fs.rm(path.join(config.storage.root, sub), { recursive: true, force: true });
    for (const f of entries) {
      await placeFile(path.join(from, MEDIA_DIR, ...f.key.split('/')), path.join(config.storage.root, ...f.key.split('/')));
      progress({ phase: 'media', files: ++files, total: entries.length });
    }
  }
  return { manifest, files };
}

const label = (kind: 'sqlite' | 'postgres') => (kind === 'sqlite' ? 'SQLite' : 'PostgreSQL');
const where = (kind: 'local' | 's3') => (kind === 'local' ? 'on local disk' : 'on S3');

async function markRestored(db: Db, manifest: Manifest, done: { bytes: number; path: string }) {
  await new BackupRunsRepository(db).finish(manifest.id, done, Date.parse(manifest.finishedAt));
}

/** What the configured database already holds, as phrases for the refusal; empty when nothing. */
async function databaseContents(config: Config['database']): Promise<string[]> {
  if (config.kind === 'sqlite') {
    try {
      await fs.access(config.file);
    } catch {
      return [];
    }
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(config.file, { readonly: true, fileMustExist: true }) }) });
    try {
      const tables = await new SnapshotRepository(db, 'sqlite').tableNames();
      return tables.length > 0 ? [`${config.file} holds ${tables.length} tables`] : [];
    } finally {
      await db.destroy();
    }
  }
  const handle = await openDatabase({ database: config }, { migrate: false });
  try {
    const tables = await new SnapshotRepository(handle.db, 'postgres').tableNames();
    return tables.length > 0 ? [`the PostgreSQL database holds ${tables.length} tables`] : [];
  } finally {
    await handle.close();
  }
}

async function mediaContents(root: string): Promise<string[]> {
  let files = 0;
  const walk = async (dir: string) => {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return; // not there: nothing stored
    }
    for (const e of entries) {
      if (e.isDirectory()) await walk(path.join(dir, e.name));
      else files++;
    }
  };
  for (const sub of ['videos', 'users']) await walk(path.join(root, sub));
  return files > 0 ? [`${root} holds ${files} media files`] : [];
}

/**
 * The copy is made and marked under a temporary name beside the target, then renamed over it: the
 * database file is either the old one or the whole restored one. The old file's WAL goes first,
 * so that it is not replayed into the restored file.
 */
async function restoreSqlite(source: string, file: string, mark: (db: Db) => Promise<void>): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.restoring`;
  await fs.rm(tmp, { force: true });
  await fs.copyFile(source, tmp);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(tmp, { fileMustExist: true }) }) });
  try {
    await mark(db);
  } finally {
    await db.destroy();
  }
  const handle = await fs.open(tmp, 'r');
  await handle.sync();
  await handle.close();
  for (const suffix of ['-wal', '-shm', '-journal']) await fs.rm(file + suffix, { force: true });
  await fs.rename(tmp, file);
  await syncDir(path.dirname(file));
}

/** pg_restore in one transaction: the database gets the whole dump or none of it. */
async function restorePostgres(dump: string, url: string, replace: boolean, mark: (db: Db) => Promise<void>): Promise<void> {
  const handle = await openDatabase({ database: { kind: 'postgres', url } }, { migrate: false });
  try {
    if (replace) await new SnapshotRepository(handle.db, 'postgres').dropEverything();
    await runPgTool('pg_restore', url, ['--no-owner', '--single-transaction', '--exit-on-error', dump]);
    await mark(handle.db);
  } finally {
    await handle.close();
  }
}

/** A hard link from the backup (files are never changed in place), a copy across filesystems. */
async function placeFile(source: string, dest: string): Promise<void> {
  await fs.mkdir(path.dirname(dest), { recursive: true });
  try {
    await fs.link(source, dest);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await fs.copyFile(source, dest);
  }
}
