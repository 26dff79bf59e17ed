import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { BackupTrigger } from './backup-runs.repository.js';

export const MANIFEST_FILE = 'manifest.json';
/** Local media: one JSON line per file, `{ key, bytes, sha256 }`, sorted by key. */
export const MEDIA_LIST_FILE = 'media.jsonl';
/** Media on S3: one JSON line per key the snapshot refers to, `{ key, size, etag }`. */
export const S3_LIST_FILE = 'media-s3.jsonl';
export const MEDIA_DIR = 'media';
const FORMAT = 1;

export interface FileSum {
  sha256: string;
  bytes: number;
}

/** What a backup folder holds; written last, so a folder with one is whole. */
export interface Manifest {
  format: number;
  /** The backup's row in backup_runs; the snapshot holds it as 'running', a restore marks it 'ok'. */
  id: string;
  app: string;
  /** The last migration applied to the database copied. */
  schema: string | null;
  trigger: BackupTrigger;
  startedAt: string;
  finishedAt: string;
  database: { kind: 'sqlite' | 'postgres'; file: string; rows: Record<string, number> } & FileSum;
  media: { kind: 'local' | 's3'; files: number; bytes: number; list: { file: string } & FileSum };
}

export interface MediaFileEntry {
  key: string;
  bytes: number;
  sha256: string;
}

export interface S3KeyEntry {
  key: string;
  size: number;
  etag: string | null;
}

/** Thrown for a backup folder that cannot be used: the message is the one line the operator sees. */
export class BackupFolderError extends Error {}

/** The file's sha256 and size; with `sync`, also flushes it to disk (a read-only descriptor may fsync on Linux). */
export async function sumFile(file: string, opts: { sync?: boolean } = {}): Promise<FileSum> {
  const handle = await fsp.open(file, 'r');
  try {
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of handle.createReadStream({ autoClose: false })) {
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
    if (opts.sync) await handle.sync();
    return { sha256: hash.digest('hex'), bytes };
  } finally {
    await handle.close();
  }
}

/** Writes a whole file and flushes it to disk before answering its sum. */
export async function writeSynced(file: string, data: string): Promise<FileSum> {
  const handle = await fsp.open(file, 'wx');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  const buffer = Buffer.from(data);
  return { sha256: createHash('sha256').update(buffer).digest('hex'), bytes: buffer.length };
}

/** Flushes a directory's entries (new names, renames) to disk. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function newManifest(fields: Omit<Manifest, 'format' | 'app'>): Manifest {
  return { format: FORMAT, app: appVersion(), ...fields };
}

/** The manifest of a finished backup folder; a partial folder or one without a manifest is refused. */
export async function readManifest(dir: string): Promise<Manifest> {
  const where = path.resolve(dir);
  if (where.endsWith('.partial')) throw new BackupFolderError(`${where} is an unfinished backup (its name ends in .partial): it cannot be restored`);
  const folder = await fsp.stat(where).catch(() => null);
  if (!folder) throw new BackupFolderError(`${where} does not exist`);
  if (!folder.isDirectory()) throw new BackupFolderError(`${where} is not a backup folder`);
  let text: string;
  try {
    text = await fsp.readFile(path.join(where, MANIFEST_FILE), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new BackupFolderError(
      code === 'ENOENT' ? `${where} is not a finished backup: it has no ${MANIFEST_FILE}` : `cannot read ${path.join(where, MANIFEST_FILE)}: ${code}`,
    );
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch {
    throw new BackupFolderError(`${path.join(where, MANIFEST_FILE)} is not valid JSON`);
  }
  if (manifest.format !== FORMAT || !manifest.database?.file || !manifest.media?.list?.file || !manifest.id) {
    throw new BackupFolderError(`${path.join(where, MANIFEST_FILE)} is not a backup manifest this version can read (format ${String(manifest.format)})`);
  }
  return manifest;
}

/** One JSON value per line. */
export function readJsonLines<T>(text: string): T[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

let version: string | null = null;

/** The site's version: the root package.json's (server/src/backup or server/dist/backup, three levels down). */
function appVersion(): string {
  version ??= (JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return version;
}
