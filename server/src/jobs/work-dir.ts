import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ownerGone, ownerTag } from '../lib/process-owner.js';

/**
 * This process's scratch directory for ffmpeg, `<base>/<owner tag>` (see lib/process-owner). Several
 * processes may share the base (the API running jobs and workers on one machine); a process killed
 * mid-job leaves its directory behind (its ffmpeg dies with it, see media/die-with-parent), so the
 * directories of owners that are gone are removed here, at start, and by the periodic sweeps.
 */
export async function prepareWorkDir(base: string): Promise<string> {
  await sweepWorkDirs(base);
  const dir = path.join(base, ownerTag());
  // Without /proc the tag is `<host>-<pid>`, and a directory of that name is a dead process's whose
  // pid came round again.
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true });
  return dir;
}

/** Removes the directories under base whose owner is gone; live owners' (and other hosts') stay. */
export async function sweepWorkDirs(base: string): Promise<number> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(base, { withFileTypes: true });
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    if (!entry.isDirectory() || !ownerGone(entry.name)) continue;
    await fs.rm(path.join(base, entry.name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/**
 * A worker's own periodic sweep of the shared work directory (API processes sweep it with their
 * housekeeping): a sibling killed on a machine whose processes never restart still loses its
 * directory. Runs every interval; the returned stop waits for a sweep in progress.
 */
export function scheduleWorkDirSweep(
  base: string,
  logger: { info(obj: object, msg: string): void; error(obj: object, msg: string): void },
  intervalMs = 10 * 60_000,
): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = sweepWorkDirs(base).then(
      (workDirs) => {
        if (workDirs) logger.info({ workDirs }, 'work directories of stopped processes removed');
      },
      (err) => logger.error({ err }, 'work directory sweep failed'),
    );
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/** Removes this process's scratch directory at shutdown. */
export async function removeWorkDir(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true });
}
