import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** `<host>-<pid>`: names files and directories after the process that owns them. */
export const OWN = () => `${os.hostname()}-${process.pid}`;

/** True when a `<host>-<pid>` owner tag names a process of this host that is no longer running. */
export function ownerIsDead(tag: string): boolean {
  const m = /^(.*)-(\d+)$/.exec(tag);
  return !!m && m[1] === os.hostname() && Number(m[2]) !== process.pid && !alive(Number(m[2]));
}

/** Whether a process of this machine is still running (EPERM: running, as someone else). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * This process's scratch directory for ffmpeg, `<base>/<host>-<pid>`. Several processes may share
 * the base (the API and workers on one machine); a process killed mid-job leaves its directory
 * behind, so directories of this host's dead processes are removed here.
 */
export async function prepareWorkDir(base: string): Promise<string> {
  await fs.mkdir(base, { recursive: true });
  const host = os.hostname();
  for (const entry of await fs.readdir(base, { withFileTypes: true })) {
    const m = /^(.*)-(\d+)$/.exec(entry.name);
    if (!entry.isDirectory() || !m || m[1] !== host) continue;
    const pid = Number(m[2]);
    if (pid !== process.pid && !alive(pid)) await fs.rm(path.join(base, entry.name), { recursive: true, force: true });
  }
  const dir = path.join(base, OWN());
  // A directory under our own pid is a dead process's whose pid came round again.
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true });
  return dir;
}

/** Removes this process's scratch directory at shutdown. */
export async function removeWorkDir(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true });
}
