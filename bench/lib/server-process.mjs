/** Starts the built server as its own process for a benchmark, and watches its memory. */
import { spawn } from 'node:child_process';
import net from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const MAIN_JS = path.join(root, 'server/dist/main.js');

/** Limits high enough that a benchmark measures the work, not the rate limiter. */
export const UNLIMITED = {
  RATE_LIMIT_AUTH_PER_MINUTE: '1000000',
  RATE_LIMIT_SIGNIN_PER_ACCOUNT_PER_HOUR: '1000000',
  RATE_LIMIT_GENERAL_PER_MINUTE: '100000000',
  RATE_LIMIT_VIEWS_PER_MINUTE: '100000000',
  RATE_LIMIT_UPLOADS_PER_HOUR: '1000000',
};

export async function startServer({ port, env }) {
  if (!fs.existsSync(MAIN_JS)) throw new Error('server/dist is missing: run `npm run build` first.');
  // As `npm start` runs it: the heap's ceiling keeps the process's memory near what it needs.
  const child = spawn(process.execPath, ['--max-old-space-size=256', MAIN_JS], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', DEMO_ACCOUNT: 'false', ...UNLIMITED, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr}`);
    try {
      if ((await fetch(`${base}/api/v1/healthcheck`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  // A server that dies under a benchmark says why, instead of leaving only the client's refused connections.
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`the server exited (${signal ?? code}) during the run:\n${stderr}`);
  });
  let peakRssBytes = 0;
  const sampler = setInterval(() => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) peakRssBytes = Math.max(peakRssBytes, Number(m[1]) * 1024);
    } catch {
      /* exited */
    }
  }, 250);
  return {
    base,
    pid: child.pid,
    peakRss: () => peakRssBytes,
    async stop() {
      stopping = true;
      clearInterval(sampler);
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => {
        child.once('exit', r);
        setTimeout(() => {
          child.kill('SIGKILL');
          r();
        }, 10_000);
      });
    },
  };
}

/** A port nobody listens on now: benchmarks running side by side must not meet each other's servers. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}
