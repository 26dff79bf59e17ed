import fs from 'node:fs/promises';
import path from 'node:path';
import { ownerGone, ownerTag } from '../lib/process-owner.js';
import type { BackupRunsRepository, BackupTrigger } from './backup-runs.repository.js';

const PARTIAL = '.partial';
/** Inside a partial folder: the owner tag of the process writing it. */
const OWNER_FILE = 'owner';
/** A partial folder with no owner file (its process died between the two) is left this long first. */
const OWNERLESS_GRACE_MS = 60 * 60_000;

/** `20261127-031500`: the UTC time in a folder name. */
function stamp(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
}

/**
 * Claims a new partial folder `reelhouse-<UTC time>-<trigger>.partial` in `dir` (with `-2`, `-3`...
 * when another backup started in the same second), signed with this process's owner tag. Only its
 * owner may read it: the database copy holds password hashes and the token-signing secret.
 */
export async function claimPartialFolder(dir: string, startedAt: number, trigger: BackupTrigger): Promise<{ name: string; partial: string }> {
  const base = `reelhouse-${stamp(startedAt)}-${trigger}`;
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if (await exists(path.join(dir, name))) continue;
    const partial = path.join(dir, name + PARTIAL);
    try {
      // The one atomic step: of two backups choosing the same name, one makes it.
      await fs.mkdir(partial, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw err;
    }
    await fs.writeFile(path.join(partial, OWNER_FILE), ownerTag());
    return { name, partial };
  }
}

/** The owner tag has no place in a finished backup: taken out just before the folder gets its name. */
export async function unsignPartialFolder(partial: string): Promise<void> {
  await fs.rm(path.join(partial, OWNER_FILE), { force: true });
}

/** Whether a folder name is a partial one; they are never restored. */
export const isPartial = (folder: string) => path.resolve(folder).endsWith(PARTIAL);

export interface InterruptedResult {
  /** backup_runs rows of gone processes marked failed. */
  runs: number;
  /** Partial folders of gone processes removed. */
  folders: number;
}

/**
 * What a backup killed midway leaves: its row says 'running' and its `.partial` folder stays. Both
 * are settled once its process is known to be gone (lib/process-owner): the row becomes 'failed'
 * ("interrupted") and the folder goes. Safe to run from several processes at once.
 */
export async function settleInterruptedBackups(deps: { runs: BackupRunsRepository; backupDir: string }, now = Date.now()): Promise<InterruptedResult> {
  const runs = await deps.runs.failInterrupted(now);
  let folders = 0;
  let names: string[];
  try {
    names = await fs.readdir(deps.backupDir);
  } catch {
    names = [];
  }
  for (const name of names.filter((n) => n.endsWith(PARTIAL))) {
    const folder = path.join(deps.backupDir, name);
    let owner: string | null = null;
    try {
      owner = (await fs.readFile(path.join(folder, OWNER_FILE), 'utf8')).trim();
    } catch {
      owner = null;
    }
    const gone = owner ? ownerGone(owner) : await olderThan(folder, now - OWNERLESS_GRACE_MS);
    if (!gone) continue;
    await fs.rm(folder, { recursive: true, force: true });
    folders++;
  }
  return { runs, folders };
}

async function olderThan(folder: string, cutoff: number): Promise<boolean> {
  try {
    return (await fs.stat(folder)).mtimeMs < cutoff;
  } catch {
    return false;
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch {
    return false;
  }
}
