import fs from 'node:fs';
import os from 'node:os';

/**
 * Who owns a scratch file or directory: the name carries an owner tag, and whoever finds it later
 * asks whether that owner is gone. Several processes share one data directory on one machine (the
 * API and workers), so "not mine" is not "dead"; and a bare pid is not enough either, since pids
 * come round again. On Linux the tag is `<host>-<pid>-<start>-<boot>-<pidns>`:
 * - `start`, the process's start time in clock ticks since boot (/proc/<pid>/stat), tells the
 *   owner from a later process that was given the same pid;
 * - `boot`, the start of the kernel's boot id, tells a process of an earlier boot (gone, whatever
 *   its pid and start time now name), since start times count from boot;
 * - `pidns`, the pid namespace, tells a process of another container that shares the host name
 *   and the data directory: its pid means nothing here, so its files are left alone.
 * Elsewhere (no /proc) the tag is `<host>-<pid>`, judged by the pid alone.
 */

interface Owner {
  host: string;
  pid: number;
  /** Absent in the `<host>-<pid>` form. */
  start?: string;
  boot?: string;
  pidns?: string;
}

const FULL = /^(.+)-(\d+)-(\d+)-([0-9a-f]{8})-(\d+)$/;
const BARE = /^(.*)-(\d+)$/;

let mine: string | null = null;

/** This process's tag, worked out once. */
export function ownerTag(): string {
  mine ??= ownerTagOf(process.pid) ?? `${os.hostname()}-${process.pid}`;
  return mine;
}

/** The tag of a running process of this machine, or null when /proc cannot say. */
export function ownerTagOf(pid: number): string | null {
  const here = machine();
  const start = startOf(pid);
  if (!here || start === null) return null;
  return `${os.hostname()}-${pid}-${start.ticks}-${here.boot}-${here.pidns}`;
}

/**
 * True only when the owner is known to be gone: a process of this host (and, on Linux, of this pid
 * namespace) that no longer runs, or whose pid now belongs to a process started later, or one from
 * before the machine last started. Another host's, another namespace's, or an unreadable tag is
 * never called gone: its files are someone else's to judge.
 */
export function ownerGone(tag: string): boolean {
  const owner = parse(tag);
  if (!owner || !(owner.pid > 0) || owner.host !== os.hostname() || tag === ownerTag()) return false;
  if (owner.start === undefined) return owner.pid === process.pid || !alive(owner.pid);
  const here = machine();
  if (!here) return false;
  if (owner.boot !== here.boot) return true;
  if (owner.pidns !== here.pidns) return false;
  const now = startOf(owner.pid);
  // Unreadable (/proc mounted with hidepid): a process we may signal, or may not, is still there.
  if (now === null) return !alive(owner.pid);
  return now.ticks !== owner.start || now.zombie;
}

function parse(tag: string): Owner | null {
  const full = FULL.exec(tag);
  if (full) return { host: full[1]!, pid: Number(full[2]), start: full[3]!, boot: full[4]!, pidns: full[5]! };
  const bare = BARE.exec(tag);
  return bare ? { host: bare[1]!, pid: Number(bare[2]) } : null;
}

let here: { boot: string; pidns: string } | null | undefined;

/** This boot and this pid namespace, or null without a Linux /proc. */
function machine(): { boot: string; pidns: string } | null {
  if (here === undefined) {
    try {
      const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').replace(/-/g, '').trim().slice(0, 8);
      const pidns = /\[(\d+)\]/.exec(fs.readlinkSync('/proc/self/ns/pid'))?.[1];
      here = /^[0-9a-f]{8}$/.test(boot) && pidns ? { boot, pidns } : null;
    } catch {
      here = null;
    }
  }
  return here;
}

/** Start time (field 22 of /proc/<pid>/stat) and whether the process has exited but not been reaped. */
function startOf(pid: number): { ticks: string; zombie: boolean } | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = fields[19];
  return ticks && /^\d+$/.test(ticks) ? { ticks, zombie: fields[0] === 'Z' || fields[0] === 'X' } : null;
}

/** Whether a process of this machine is still running (EPERM: running, as someone else). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
