import fs from 'node:fs/promises';
import path from 'node:path';
import { ownerIsDead } from './jobs/work-dir.js';
import type { OrphanSweepRepository } from './orphan-sweep.repository.js';
import type { Storage } from './storage/storage.js';

/**
 * How long a file may sit untouched before it counts as left behind. An upload still arriving is
 * written to all the time, and stored media gets its row within moments of being stored, so an hour
 * of silence means the request or process that owned the file is gone.
 */
export const ORPHAN_GRACE_MS = 60 * 60_000;

export interface SweepResult {
  temporaryFiles: number;
  mediaPrefixes: number;
}

/**
 * Removes what a killed process or a failed clean-up left behind: temporary upload files, local
 * storage's half-written files, and stored media of videos and users whose rows no longer exist
 * (stored, then the process died before the row was written; or the row was deleted and removing
 * its files failed). Safe to run from several processes at once.
 */
export interface OrphanSweepDeps {
  rows: OrphanSweepRepository;
  storage: Pick<Storage, 'list' | 'stat' | 'deletePrefix'>;
  /** The shared temporary directory the multipart reader writes uploads to. */
  tmpDir: string;
  /** Local storage's root (its half-written files are under `.tmp`), or null for object storage. */
  localStorageRoot: string | null;
}

export async function sweepOrphans(deps: OrphanSweepDeps, now = Date.now()): Promise<SweepResult> {
  const { rows, storage } = deps;
  const cutoff = now - ORPHAN_GRACE_MS;
  // Only the multipart reader's own files in the shared temporary directory (other features may keep
  // files there on other terms). Those of a dead process of this machine go at once; others (another
  // machine's, sharing the directory) after the grace period.
  let temporaryFiles = await removeOldFiles(
    deps.tmpDir,
    cutoff,
    (name) => name.startsWith('upload-'),
    (name) => {
      const m = /^upload-(.+)-[0-9a-f]{16}$/.exec(name);
      return !!m && ownerIsDead(m[1]!);
    },
  );
  if (deps.localStorageRoot !== null) temporaryFiles += await removeOldFiles(path.join(deps.localStorageRoot, '.tmp'), cutoff);

  let mediaPrefixes = 0;
  for (const [prefix, table] of [
    ['videos/', 'videos'],
    ['users/', 'users'],
  ] as const) {
    const byOwner = new Map<string, string[]>();
    for (const key of await storage.list(prefix)) {
      const id = key.slice(prefix.length).split('/')[0];
      if (id) byOwner.set(id, [...(byOwner.get(id) ?? []), key]);
    }
    const alive = await rows.existingIds(table, [...byOwner.keys()]);
    for (const [id, keys] of byOwner) {
      if (alive.has(id)) continue;
      // Only once every object under it is old: a brand-new upload stores its files just before its row.
      const stats = await Promise.all(keys.map((k) => storage.stat(k)));
      if (stats.some((s) => !s?.lastModified || s.lastModified.getTime() > cutoff)) continue;
      await storage.deletePrefix(`${prefix}${id}/`);
      mediaPrefixes++;
    }
  }
  return { temporaryFiles, mediaPrefixes };
}

async function removeOldFiles(
  dir: string,
  cutoff: number,
  ours: (name: string) => boolean = () => true,
  orphanedAlready: (name: string) => boolean = () => false,
): Promise<number> {
  let entries: string[];
  try {
    entries = await fs.readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of entries) {
    if (!ours(name)) continue;
    const file = path.join(dir, name);
    const st = await fs.lstat(file).catch(() => null);
    if (!st?.isFile() || (st.mtimeMs > cutoff && !orphanedAlready(name))) continue;
    await fs.rm(file, { force: true });
    removed++;
  }
  return removed;
}
