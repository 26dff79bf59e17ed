#!/usr/bin/env node
/**
 * Load benchmark: mixed traffic against the real built server on loopback.
 *
 * Starts `node server/dist/main.js` on a fresh SQLite data directory with its default limits, signs
 * up accounts and seeds videos, then runs CONNECTIONS clients for SECONDS: each client is one
 * keep-alive connection from its own loopback address (127.0.x.y: the per-address rate limits see
 * separate people) sending, one after another, the home feed, searches, video pages, comment pages,
 * likes, comments, counted views and sign-ins. Reports throughput, p50/p99 latency, errors (network
 * failures and 5xx), unexpected 4xx, and rate-limited (429) answers apart.
 *
 * Baseline, measured in the same run with the same clients and duration: a bare node:http server
 * answering a fixed JSON envelope, i.e. what this machine's loopback and load generator allow.
 *
 * Usage: npm run build && node bench/load.mjs [--seconds 60] [--connections 200] [--smoke]
 *   --smoke: 5 s, 20 connections, fewer accounts and videos; exits 1 on any error or 5xx.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAIN_JS = path.join(root, 'server/dist/main.js');
if (!fs.existsSync(MAIN_JS)) {
  console.error('server/dist is missing: run `npm run build` first.');
  process.exit(1);
}
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SMOKE = process.argv.includes('--smoke');
const SECONDS = arg('seconds', SMOKE ? 5 : 60);
const CONNECTIONS = arg('connections', SMOKE ? 20 : 200);
const ACCOUNTS = SMOKE ? 6 : 40;
const VIDEOS = SMOKE ? 30 : 300;
const WINDOW_MS = SMOKE ? 1000 : 10_000;

const mod = (p) => import(pathToFileURL(path.join(root, 'server/dist', `${p}.js`)).href);

/** One request over a given agent; resolves with status and body, never rejects. */
function send(agent, port, method, url, { headers = {}, body } = {}) {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}) },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (err) => resolve({ status: 0, error: err.message }));
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('timed out after 30 s')));
    req.on('error', (err) => resolve({ status: 0, error: err.message }));
    req.end(payload);
  });
}

/** CPU time (ms) a process has used so far, from /proc (Linux); null elsewhere. */
function cpuMsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch {
    return null;
  }
}

/** A client's own loopback address: 127.0.x.y, never 127.0.0.1 nor 127.0.250.y (used by the set-up). */
const clientAddress = (i) => `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`;

function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Runs the clients for the duration; pick(i, n) chooses client i's n-th request. Throughput is the
 * median over fixed windows, so one stall of the shared machine does not decide the figure.
 */
async function drive(port, pick, serverPid) {
  const cpuBefore = cpuMsOf(serverPid);
  const latencies = [];
  const counts = { total: 0, errors: 0, serverErrors: 0, rateLimited: 0, unexpected4xx: 0 };
  const byKind = {};
  const samples = [];
  const windows = [];
  const started = Date.now();
  const end = started + SECONDS * 1000;
  let windowCount = 0;
  let windowStart = started;
  const clients = Array.from({ length: CONNECTIONS }, async (_, i) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: clientAddress(i) });
    for (let n = 0; Date.now() < end; n++) {
      const r = pick(i, n);
      const t0 = performance.now();
      const res = await send(agent, port, r.method, r.url, r);
      const ms = performance.now() - t0;
      const now = Date.now();
      if (now > end) break;
      while (now - windowStart >= WINDOW_MS) {
        windows.push(windowCount / (WINDOW_MS / 1000));
        windowCount = 0;
        windowStart += WINDOW_MS;
      }
      windowCount++;
      latencies.push(ms);
      counts.total++;
      const k = (byKind[r.kind] ??= { total: 0, rateLimited: 0, failed: 0 });
      k.total++;
      if (res.status === 0) counts.errors++;
      else if (res.status >= 500) counts.serverErrors++;
      else if (res.status === 429) {
        counts.rateLimited++;
        k.rateLimited++;
      } else if (res.status >= 400 && !r.expect?.includes(res.status)) counts.unexpected4xx++;
      if (res.status === 0 || res.status >= 500 || (res.status >= 400 && res.status !== 429 && !r.expect?.includes(res.status))) {
        k.failed++;
        if (samples.length < 5) samples.push(`${r.method} ${r.url.slice(0, 80)} -> ${res.status} ${res.error ?? res.body?.slice(0, 120)}`);
      }
      r.after?.(res);
    }
    agent.destroy();
  });
  await Promise.all(clients);
  const elapsed = (Date.now() - started) / 1000;
  const cpuAfter = cpuMsOf(serverPid);
  latencies.sort((a, b) => a - b);
  return {
    ...counts,
    // The server's own CPU per answered request: the figure the machine's other load does not change.
    cpuMsPerRequest: cpuBefore !== null && cpuAfter !== null ? (cpuAfter - cpuBefore) / Math.max(1, counts.total) : NaN,
    elapsed,
    throughput: windows.length ? median(windows) : counts.total / elapsed,
    meanThroughput: counts.total / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    byKind,
    samples,
  };
}

async function startBaseline() {
  const body = JSON.stringify({ statusCode: 200, data: { videos: [], totalDocs: 0 }, message: 'Videos fetched', success: true });
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.keepAliveTimeout = 72_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: server.address().port, pid: process.pid, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function startSite() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reelhouse-load-'));
  const probe = http.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = probe.address().port;
  await new Promise((resolve) => probe.close(resolve));
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? '/tmp',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    DEMO_ACCOUNT: 'false',
    NODE_ENV: 'production',
  };
  const child = spawn(process.execPath, [MAIN_JS], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const agent = new http.Agent({ keepAlive: true });
  for (let i = 0; ; i++) {
    const res = await send(agent, port, 'GET', '/api/v1/healthcheck');
    if (res.status === 200) break;
    if (child.exitCode !== null || i > 600) throw new Error(`the server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    dataDir,
    agent,
    pid: child.pid,
    async close() {
      agent.destroy();
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Accounts signed up through the API (password hashing included); videos written straight to the database. */
async function seed(site) {
  const accounts = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    // Each account signs up from its own address: the sign-up limit is per address.
    const agent = new http.Agent({ keepAlive: false, localAddress: `127.0.250.${1 + i}` });
    const n = `load${i}${Date.now().toString(36)}`;
    const boundary = 'loadSeedBoundary';
    const fields = { username: n, email: `${n}@example.com`, password: 'correct-horse-1', fullName: `Load ${i}` };
    const body =
      Object.entries(fields)
        .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
        .join('') + `--${boundary}--\r\n`;
    const reg = await new Promise((resolve) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: site.port,
          method: 'POST',
          path: '/api/v1/users/register',
          agent,
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let b = '';
          res.on('data', (c) => (b += c));
          res.on('end', () => resolve({ status: res.statusCode, body: b }));
        },
      );
      req.end(body);
    });
    if (reg.status !== 201) throw new Error(`sign-up failed: ${reg.status} ${reg.body}`);
    const login = await send(agent, site.port, 'POST', '/api/v1/users/login', {
      headers: { 'x-return-tokens': 'true' },
      body: { email: fields.email, password: fields.password },
    });
    if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${login.body}`);
    const data = JSON.parse(login.body).data;
    accounts.push({ id: data.user._id, email: fields.email, password: fields.password, token: data.accessToken });
  }
  const { loadConfig } = await mod('config');
  const { openDatabase } = await mod('db/client');
  const { newId } = await mod('lib/ids');
  const { refreshVideoAccess } = await mod('db/video-access');
  const handle = await openDatabase(loadConfig({ DATA_DIR: site.dataDir, DEMO_ACCOUNT: 'false' }), { migrate: false });
  const words = ['sunset', 'mountain', 'river', 'city', 'night', 'train', 'ocean', 'forest', 'music', 'cooking', 'garden', 'winter'];
  const videoIds = [];
  const now = Date.now();
  for (let i = 0; i < VIDEOS; i++) {
    const owner = accounts[i % accounts.length];
    const id = newId();
    const title = `${words[i % words.length]} ${words[(i * 7) % words.length]} ${i}`;
    await handle.db
      .insertInto('videos')
      .values({
        id,
        owner_id: owner.id,
        title,
        description: `A seeded video about ${title}`,
        owner_text: `load ${owner.email}`,
        duration: 30 + (i % 300),
        views: 0,
        status: 'ready',
        progress: 100,
        failure_reason: null,
        visibility: 'public',
        publish_at: null,
        hidden_at: null,
        hidden_reason: null,
        listed: 0,
        watchable: 0,
        width: 1280,
        height: 720,
        source_key: null,
        video_key: `videos/${id}/video.mp4`,
        hls_key: null,
        storyboard_key: null,
        thumbnail_key: `videos/${id}/thumbnail.webp`,
        likes_count: 0,
        comments_count: 0,
        created_at: now - i * 1000,
        updated_at: now - i * 1000,
      })
      .execute();
    videoIds.push(id);
  }
  for (const a of accounts) await refreshVideoAccess(handle.db, { ownerId: a.id });
  await handle.close?.();
  return { accounts, videoIds, words };
}

/** The mix: mostly reads, as a video site sees; writes and sign-ins from signed-in people. */
function siteMix({ accounts, videoIds, words }) {
  const table = [
    [28, 'home feed'],
    [14, 'search'],
    [22, 'video page'],
    [14, 'comments'],
    [8, 'like'],
    [6, 'comment'],
    [6, 'view'],
    [2, 'sign-in'],
  ];
  const totalWeight = table.reduce((s, [w]) => s + w, 0);
  let seedState = 12345;
  const rand = () => (seedState = (seedState * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pickOf = (xs) => xs[Math.floor(rand() * xs.length)];
  return (i) => {
    const account = accounts[i % accounts.length];
    const auth = { authorization: `Bearer ${account.token}` };
    let roll = rand() * totalWeight;
    let kind = table[0][1];
    for (const [w, k] of table) {
      if ((roll -= w) < 0) {
        kind = k;
        break;
      }
    }
    const video = pickOf(videoIds);
    switch (kind) {
      case 'home feed':
        return { kind, method: 'GET', url: `/api/v1/videos/?pageNumber=${1 + Math.floor(rand() * 3)}&pageSize=12` };
      case 'search':
        return { kind, method: 'GET', url: `/api/v1/videos/?query=${pickOf(words).slice(0, 3 + Math.floor(rand() * 3))}` };
      case 'video page':
        return { kind, method: 'GET', url: `/api/v1/videos/${video}`, headers: auth };
      case 'comments':
        return { kind, method: 'GET', url: `/api/v1/comments/${video}?pageNumber=1&pageSize=20` };
      case 'like':
        return { kind, method: 'POST', url: `/api/v1/likes/toggle/video/${video}`, headers: auth };
      case 'comment':
        return { kind, method: 'POST', url: `/api/v1/comments/${video}`, headers: auth, body: { content: `Load comment ${i}` } };
      case 'view':
        return { kind, method: 'PATCH', url: `/api/v1/videos/increment-views/${video}`, headers: { 'user-agent': `load-client-${i}` } };
      default:
        return {
          kind,
          method: 'POST',
          url: '/api/v1/users/login',
          headers: { 'x-return-tokens': 'true' },
          body: { email: account.email, password: account.password },
          after: (res) => {
            if (res.status === 200) account.token = JSON.parse(res.body).data.accessToken ?? account.token;
          },
        };
    }
  };
}

const fmt = (r) =>
  `${r.throughput.toFixed(0)} req/s (median of ${WINDOW_MS / 1000} s windows; mean ${r.meanThroughput.toFixed(0)}), ` +
  `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.total} requests, errors ${r.errors}, 5xx ${r.serverErrors}, ` +
  `unexpected 4xx ${r.unexpected4xx}, rate-limited ${r.rateLimited}, server CPU ${r.cpuMsPerRequest.toFixed(2)} ms/request`;

console.log(
  `load: ${CONNECTIONS} connections for ${SECONDS} s each${SMOKE ? ' (smoke)' : ''}; load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
const baselineServer = await startBaseline();
// The baseline server runs inside this process, so its CPU figure includes the load generator's.
const baseline = await drive(baselineServer.port, () => ({ kind: 'baseline', method: 'GET', url: '/api/v1/videos/' }), baselineServer.pid);
await baselineServer.close();
console.log(`baseline (bare node:http, fixed JSON): ${fmt(baseline)}`);

const site = await startSite();
let result;
try {
  const seeded = await seed(site);
  console.log(`seeded ${seeded.accounts.length} accounts and ${seeded.videoIds.length} videos`);
  result = await drive(site.port, siteMix(seeded), site.pid);
} finally {
  await site.close();
}
console.log(`reelhouse (mixed traffic): ${fmt(result)}`);
for (const [kind, k] of Object.entries(result.byKind)) {
  console.log(`  ${kind.padEnd(10)} ${String(k.total).padStart(7)} requests, ${k.rateLimited} rate-limited, ${k.failed} failed`);
}
for (const s of result.samples) console.log(`  sample failure: ${s}`);
console.log(
  `ratios to the baseline: throughput ${(result.throughput / baseline.throughput).toFixed(3)}x, ` +
    `p50 ${(result.p50 / baseline.p50).toFixed(1)}x, p99 ${(result.p99 / baseline.p99).toFixed(1)}x; load average now ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
);
const failed = result.errors + result.serverErrors + result.unexpected4xx;
console.log(failed ? `FAIL: ${failed} failed requests (target 0)` : 'OK: no errors, no 5xx');
process.exit(failed ? 1 : 0);
