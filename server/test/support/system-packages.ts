import { type ExecFileSyncOptions, execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * Makes sure Debian packages a test runs are installed: when one of `files` is missing it installs
 * `packages` with apt-get as root, and otherwise throws one line saying what to install. The same
 * packages are installed by `npm test`'s pretest (scripts/ensure-system.mjs); this covers a test
 * file run on its own.
 */
export function ensureDebianPackages(what: string, files: string[], packages: string[]): void {
  const missing = () => files.filter((f) => !fs.existsSync(f));
  if (missing().length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hint = `${what} is missing (${missing().join(', ')}): install it with "sudo apt-get install -y ${packages.join(' ')}"`;
  if (!isRoot || !fs.existsSync('/usr/bin/apt-get')) throw new Error(hint);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    const opts: ExecFileSyncOptions = { stdio: ['ignore', 'ignore', 'pipe'], env, timeout: 600_000 };
    execFileSync('apt-get', ['update', '-qq'], opts);
    execFileSync('apt-get', ['install', '-y', '-qq', ...packages], opts);
  } catch (err) {
    const last = String((err as { stderr?: Buffer }).stderr ?? err)
      .trim()
      .split('\n')
      .at(-1);
    throw new Error(`${hint}; apt-get failed: ${last}`);
  }
  if (missing().length) throw new Error(hint);
}
