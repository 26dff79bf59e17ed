import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { createPgDatabase } from '../support/databases.js';
import { type NginxBalancer, startNginxBalancer } from '../support/nginx-balancer.js';
import { ApiClient, freePort, MAIN_JS, type RunningProcess, startProcess, waitForHealthy, WORKER_JS } from '../support/processes.js';
import { type Radosgw, startRadosgw } from '../support/radosgw.js';

const REDIS_BASE = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CLAIM_KEY = 'reelhouse-test:claimed-by';

/**
 * docs/operations.md's scaled-out site on one machine: two API processes and two workers sharing
 * a fresh PostgreSQL database, a Redis database of their own and a bucket on a real Ceph RADOS
 * gateway, with nginx balancing requests over the two API processes.
 */
export interface ScaledSite {
  /** nginx's address, the site's public URL. */
  url: string;
  /** The API processes' own addresses, bypassing nginx. */
  apiUrls: [string, string];
  apis: [RunningProcess, RunningProcess];
  workers: RunningProcess[];
  /** The data directory of each process, by name. */
  dataDirs: Map<string, string>;
  s3: Radosgw;
  /** Starts one more worker with the same settings and waits until it is ready. */
  startWorker(name: string): Promise<RunningProcess>;
  close(): Promise<void>;
}

/**
 * A Redis database number nobody is using, claimed with a key so that another run picking at the
 * same moment sees it taken: the site's keys (prefix `reelhouse:`) then meet no other site's.
 */
export async function claimRedisDb(): Promise<{ url: string; release(): Promise<void> }> {
  const token = randomBytes(8).toString('hex');
  const candidates = Array.from({ length: 15 }, (_v, i) => i + 1).sort(() => Math.random() - 0.5);
  for (const n of candidates) {
    const redis = new Redis(`${REDIS_BASE}/${n}`);
    try {
      if ((await redis.dbsize()) > 0) continue;
      if ((await redis.set(CLAIM_KEY, token, 'EX', 3600, 'NX')) !== 'OK') continue;
      const url = `${REDIS_BASE}/${n}`;
      return {
        url,
        async release() {
          const r = new Redis(url);
          try {
            if ((await r.get(CLAIM_KEY)) === token) await r.flushdb();
          } finally {
            await r.quit();
          }
        },
      };
    } finally {
      await redis.quit();
    }
  }
  throw new Error(`no empty Redis database at ${REDIS_BASE} for the scale-out test`);
}

/** SIGTERM, and SIGKILL if the process has not stopped within `ms`. */
async function stopWithin(proc: RunningProcess, ms: number): Promise<void> {
  const timer = setTimeout(() => void proc.kill(), ms);
  await proc.stop();
  clearTimeout(timer);
}

export async function startScaledSite(): Promise<ScaledSite> {
  const cleanups: (() => Promise<void>)[] = [];
  const procs: RunningProcess[] = [];
  const dataDirs = new Map<string, string>();
  const close = async () => {
    await Promise.all(procs.map((p) => stopWithin(p, 15_000)));
    for (const c of cleanups.reverse()) await c().catch((err: Error) => console.error(`scale-out clean-up: ${err.message}`));
  };
  try {
    const [s3, pg, redis] = await Promise.all([startRadosgw(), createPgDatabase(), claimRedisDb()]);
    cleanups.push(
      () => s3.stop(),
      () => pg.drop(),
      () => redis.release(),
    );
    const [portA, portB, proxyPort] = [await freePort(), await freePort(), await freePort()];
    const url = `http://127.0.0.1:${proxyPort}`;
    const common = {
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      ...s3.env,
      DEMO_ACCOUNT: 'false',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
    };
    const dataDir = async (name: string) => {
      const d = await fs.mkdtemp(path.join(os.tmpdir(), `reelhouse-${name}-`));
      dataDirs.set(name, d);
      cleanups.push(() => fs.rm(d, { recursive: true, force: true }));
      return d;
    };
    const start = async (name: string, script: string, env: Record<string, string>) => {
      const proc = startProcess(name, script, { ...common, DATA_DIR: await dataDir(name), ...env });
      procs.push(proc);
      return proc;
    };

    // As the operations guide has them behind a proxy on the same machine.
    const apiEnv = (port: number) => ({ PORT: String(port), HOST: '127.0.0.1', TRUST_PROXY: 'true', PUBLIC_URL: url });
    const apis: RunningProcess[] = [];
    for (const [name, port] of [
      ['api-a', portA],
      ['api-b', portB],
    ] as const) {
      const proc = await start(name, MAIN_JS, apiEnv(port));
      // One after the other: the first to start runs the migrations.
      await waitForHealthy(new ApiClient(`http://127.0.0.1:${port}`), proc);
      apis.push(proc);
    }
    const startWorker = async (name: string) => {
      const w = await start(name, WORKER_JS, {});
      await w.waitForLog('start', (l) => l.msg === 'worker started');
      return w;
    };
    const workers = await Promise.all([startWorker('worker-1'), startWorker('worker-2')]);
    const nginx: NginxBalancer = await startNginxBalancer({ port: proxyPort, upstreams: [`127.0.0.1:${portA}`, `127.0.0.1:${portB}`] });
    cleanups.push(() => nginx.stop());

    return {
      url,
      apiUrls: [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`],
      apis: apis as [RunningProcess, RunningProcess],
      workers,
      dataDirs,
      s3,
      async startWorker(name) {
        const w = await startWorker(name);
        workers.push(w);
        return w;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
