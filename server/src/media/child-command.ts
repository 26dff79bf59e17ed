import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The command line a media tool is started with, so that it dies with the process that started it
 * and stays under the memory ceiling.
 *
 * A process killed with SIGKILL runs no handler, so nothing it does at exit can stop its ffmpeg,
 * which would otherwise run on for minutes (reparented to init) writing into a work directory that
 * nobody owns any more. On Linux the kernel does it: util-linux's `setpriv --pdeathsig KILL` sets
 * the parent-death signal (prctl PR_SET_PDEATHSIG) and execs the rest, and the shell after it
 * checks that its parent is still this process (had this process died before setpriv set the
 * signal, nothing would ever send it) and execs the tool. Every step execs in place, so the pid
 * Node holds is the tool's own and nice and kill still reach it; the signal survives exec.
 *
 * The kernel sends the signal when the *thread* that forked the child exits. Node spawns from its
 * main thread, which lives as long as the process; nothing spawns from a worker thread (the SQLite
 * read pool's threads only read), and nothing may, or its tools would die with the thread.
 *
 * Without setpriv (not Linux, or a util-linux older than 2.33) tools run as before and the process
 * warns once at start (childrenDieWithParent). A watchdog process per tool was weighed and left
 * out: it is one more process to leak, and it cannot tell a pid that came round again from the
 * tool. The work-directory sweep still removes what such a tool leaves once its owner is gone.
 */
export function childCommand(bin: string, args: string[], memoryLimitMb: number): [string, string[]] {
  if (process.platform === 'win32') return [bin, args];
  const setpriv = setprivPath();
  const steps: string[] = [];
  const params: string[] = [];
  if (setpriv) {
    steps.push('[ "$PPID" = "$1" ]', 'shift');
    params.push(String(process.pid));
  }
  if (memoryLimitMb) {
    steps.push('ulimit -v "$1"', 'shift');
    params.push(String(Math.round(memoryLimitMb * 1024)));
  }
  if (!steps.length) return [bin, args];
  // Arguments are positional parameters of the script, never interpolated into it.
  const shell = ['-c', [...steps, 'exec "$@"'].join(' && '), 'sh', ...params, bin, ...args];
  return setpriv ? [setpriv, ['--pdeathsig', 'KILL', '--', '/bin/sh', ...shell]] : ['/bin/sh', shell];
}

/** Whether the tools this process starts die with it (see childCommand). */
export function childrenDieWithParent(): boolean {
  return setprivPath() !== null;
}

let found: string | null | undefined;

/** util-linux's setpriv, if it is there and knows --pdeathsig; looked for once. */
function setprivPath(): string | null {
  if (found === undefined) found = process.platform === 'linux' ? findSetpriv() : null;
  return found;
}

function findSetpriv(): string | null {
  const dirs = new Set([...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/bin', '/bin']);
  for (const dir of dirs) {
    const candidate = path.join(dir, 'setpriv');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
    } catch {
      continue;
    }
    const probe = spawnSync(candidate, ['--pdeathsig', 'KILL', '--', '/bin/sh', '-c', ':'], { stdio: 'ignore', timeout: 5000 });
    if (probe.status === 0) return candidate;
  }
  return null;
}
