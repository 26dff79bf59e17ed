import fs from 'node:fs/promises';
import path from 'node:path';
import { sweepWorkDirs } from './jobs/work-dir.js';
import { ownerGone } from './lib/process-owner.js';
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
  /** Job scratch directories of processes that are gone. */
  workDirs: number;
  mediaPrefixes: number;
}

/**
 * Removes what a killed process or a failed clean-up left behind: temporary upload files and frame
 * cuts, job scratch directories, local storage's half-written files, and stored media of videos and
 * users whose rows no longer exist (stored, then the process died before the row was written; or
 * the row was deleted and removing its files failed). Safe to run from several processes at once.
 */
export interface OrphanSweepDeps {
  rows: OrphanSweepRepository;
  storage: Pick<Storage, 'list' | 'stat' | 'deletePrefix'>;
  /** The shared temporary directory the multipart reader, the upload store and frame cuts write to. */
  tmpDir: string;
  /** The shared base of the job scratch directories, one per process that runs jobs (jobs/work-dir). */
  workBase: string;
  /** Local storage's root (its half-written files are under `.tmp`), or null for object storage. */
  localStorageRoot: string | null;
}

export async function sweepOrphans(deps: OrphanSweepDeps, now = Date.now()): Promise<SweepResult> {
  const { rows, storage } = deps;
  const cutoff = now - ORPHAN_GRACE_MS;
  // Only the scratch this code names in the shared temporary directory (other features may keep
  // files there on other terms): `upload-<owner>-<random>` files and `frame-<owner>-<random>`
  // directories. Those of a process that is gone (lib/process-owner) go at once; others (a live
  // process's that its clean-up missed, another machine's) after the grace period.
  let temporaryFiles = await removeLeftovers(
    deps.tmpDir,
    cutoff,
    (name) => name.startsWith('upload-') || name.startsWith('frame-'),
    (name) => {
      const m = /^(?:upload|frame)-(.+)-[A-Za-z0-9]+$/.exec(name);
      return !!m && ownerGone(m[1]!);
    },
  );
  if (deps.localStorageRoot !== null) temporaryFiles += await removeLeftovers(path.join(deps.localStorageRoot, '.tmp'), cutoff);
  const workDirs = await sweepWorkDirs(deps.workBase);

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
  return { temporaryFiles, workDirs, mediaPrefixes };
}

async function removeLeftovers(
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
    if (!(st?.isFile() || st?.isDirectory()) || (st.mtimeMs > cutoff && !orphanedAlready(name))) continue;
    await fs.rm(file, { recursive: true, force: true });
    removed++;
  }
  return removed;
}
