import { spawn } from 'node:child_process';

/**
 * Runs pg_dump or pg_restore (from PATH) on the database at `url` to the end. The password goes
 * through the environment, not the command line other users of the machine can read. A failure is
 * one line: the tool's own last line of complaint, or that it is not installed.
 */
export function runPgTool(tool: 'pg_dump' | 'pg_restore', url: string, args: string[]): Promise<void> {
  const bare = new URL(url);
  const password = decodeURIComponent(bare.password);
  bare.password = '';
  return new Promise((resolve, reject) => {
    const child = spawn(tool, [`--dbname=${bare.toString()}`, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-8192);
    });
    child.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === 'ENOENT' ? `${tool} is not installed (Debian: apt-get install postgresql-client)` : `${tool}: ${err.message}`)),
    );
    child.once('close', (code, signal) => {
      if (code === 0) return resolve();
      const last = stderr.trim().split('\n').pop()?.trim();
      reject(new Error(`${tool} failed (${signal ?? `exit code ${code}`})${last ? `: ${last}` : ''}`));
    });
  });
}
