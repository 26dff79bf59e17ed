import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The copying thread's program: SQLite's online backup API on a read-only connection of its own,
 * all pages in one step (one read transaction, so one moment's database; small steps would start
 * over whenever another process writes, which on a busy site may be forever), then the copy made
 * self-contained (no WAL) and checked with `PRAGMA integrity_check`.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.betterSqlite3);
(async () => {
  const from = new Database(workerData.source, { readonly: true, fileMustExist: true });
  try {
    await from.backup(workerData.target, { progress: () => 0x7fffffff });
  } finally {
    from.close();
  }
  const copy = new Database(workerData.target);
  try {
    copy.pragma('journal_mode = DELETE');
    parentPort.postMessage({ check: copy.pragma('integrity_check').map((row) => row.integrity_check) });
  } finally {
    copy.close();
  }
})().catch((err) => parentPort.postMessage({ error: err.message }));
`;

/**
 * Copies a SQLite database as of one moment into `target` and checks the copy, in a thread of its
 * own: the copy and the check read the whole file, seconds or minutes on a large site, and a
 * backup taken by the server itself (a scheduled one, or one an admin asked for) must not stop it
 * answering meanwhile. In WAL mode the site's writers carry on while the copy reads.
 */
export function copySqlite(source: string, target: string): Promise<void> {
  const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { source, target, betterSqlite3 } });
    let settled = false;
    const settle = (err: Error | null) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (err) reject(err);
      else resolve();
    };
    worker.once('message', (msg: { check?: string[]; error?: string }) => {
      if (msg.error !== undefined) return settle(new Error(msg.error));
      const check = msg.check ?? [];
      if (check.join() !== 'ok') return settle(new Error(`the database copy failed its integrity check: ${check.slice(0, 3).join('; ')}`));
      settle(null);
    });
    worker.once('error', (err) => settle(err));
    worker.once('exit', (code) => settle(new Error(`the database copy stopped (thread exit code ${code})`)));
  });
}
