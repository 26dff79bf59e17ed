#!/usr/bin/env node
/**
 * Lists and search at scale: the real server on a large catalogue (bench/catalogue.mjs), every list
 * the site serves measured alone (median of single requests) and under load (autocannon, 50
 * connections), each beside a bare Fastify route answering the same JSON from memory in the same run.
 * While the heaviest lists run, a prober asks the healthcheck every 10 ms: its p99 shows whether one
 * slow query stalls everyone else. The server's peak RSS is sampled throughout.
 *
 * Usage: npm run build && node bench/lists.mjs [--db sqlite|postgres] [--scale 1] [--seconds 15]
 *          [--connections 50] [--reuse] [--quick] [--smoke] [--only <name part>] [--uncached]
 *   --scale 1: 1,000,000 videos (see bench/catalogue.mjs); --reuse keeps a catalogue made before
 *   (and stops if its summary, bench/results/catalogue-<db>-<scale>.json, is missing).
 *   --uncached: the server runs with ANSWER_CACHE=false, so every answer comes from the database
 *   (what a crawler walking pages nobody else asks for costs).
 *   --quick: scale 0.05, 5 s per run. --smoke: a tiny catalogue, 1 s runs; checks the script only.
 * Writes bench/results/lists-<db>[-uncached].json (name, value, unit, baseline, ratio, target, pass per figure).
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { arg, flag } from './lib/cli.mjs';
import { catalogueFor, resultsDir } from './lib/catalogue-source.mjs';
import { median, probeHealthcheck, round } from './lib/probe.mjs';
import { writeFigures } from './lib/results.mjs';
import { startServer } from './lib/server-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const QUICK = flag('quick');
const SMOKE = flag('smoke');
const DB = arg('db', 'sqlite');
const SCALE = Number(arg('scale', SMOKE ? '0.002' : QUICK ? '0.05' : '1'));
const SECONDS = Number(arg('seconds', SMOKE ? '1' : QUICK ? '5' : '15'));
const CONNECTIONS = Number(arg('connections', SMOKE ? '5' : '50'));
const SINGLE_RUNS = SMOKE ? 5 : 21;
const PAGE_SIZE = 12;
const ONLY = arg('only', '');
const UNCACHED = flag('uncached');
const variant = UNCACHED ? `${DB}-uncached` : DB;
const port = Number(arg('port', '7301'));
const barePort = port + 1;

// 1. The catalogue, made or reused.
const { summary: catalogue, env: catalogueEnv } = catalogueFor({ db: DB, scale: SCALE, reuse: flag('reuse') });

// 2. The server on it.
const server = await startServer({
  port,
  env: { ...catalogueEnv, ...(UNCACHED ? { ANSWER_CACHE: 'false' } : {}) },
});
const api = (p) => `/api/v1${p}`;
const signIn = await fetch(`${server.base}${api('/users/login')}`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-return-tokens': 'true' },
  body: JSON.stringify({ email: 'user1@catalogue.example', password: 'catalogue-password' }),
}).then((r) => r.json());
const bearer = { authorization: `Bearer ${signIn.data.accessToken}` };

const { landmarks } = catalogue;
const lastPage = Math.max(1, Math.ceil(catalogue.listedVideos / PAGE_SIZE));
const home = await getJson(api(`/videos/?pageNumber=1&pageSize=${PAGE_SIZE}`));
const popularVideo = home.data.videos[0]._id;
const deep = await getJson(api(`/comments/${landmarks.deepCommentsVideo}?pageNumber=1&pageSize=${PAGE_SIZE}`));
const lastCommentPage = deep.data.totalPages;
const page = (n) => `pageNumber=${n}&pageSize=${PAGE_SIZE}`;
const q = (s) => encodeURIComponent(s);

/** heavy: the healthcheck is probed during its loaded run. optional: measured only where the route exists. */
const targets = [
  { name: 'home feed, page 1', path: api(`/videos/?${page(1)}`), goal: { ratio: 0.5, p99: 25 } },
  { name: 'home feed, page 1,000', path: api(`/videos/?${page(Math.min(1000, lastPage))}`), goal: { p99: 50 }, heavy: true },
  { name: 'home feed, last page', path: api(`/videos/?${page(lastPage)}`), goal: { p99: 50 }, heavy: true },
  { name: 'search, common word', path: api(`/videos/?${page(1)}&query=${q(landmarks.commonWord)}`), goal: { p99: 50 } },
  { name: 'search, commonest word', path: api(`/videos/?${page(1)}&query=${q(landmarks.commonestWord)}`), goal: { p99: 50 }, heavy: true },
  { name: 'search, rare word', path: api(`/videos/?${page(1)}&query=${q(landmarks.rareWord)}`), goal: { p99: 50 } },
  { name: 'search, phrase', path: api(`/videos/?${page(1)}&query=${q(landmarks.phrase)}`), goal: { p99: 50 } },
  { name: 'video page', path: api(`/videos/${popularVideo}`), goal: { ratio: 0.5 } },
  { name: 'comments, page 1', path: api(`/comments/${landmarks.deepCommentsVideo}?${page(1)}`), goal: { ratio: 0.5 } },
  { name: 'comments, last page', path: api(`/comments/${landmarks.deepCommentsVideo}?${page(lastCommentPage)}`), goal: { ratio: 0.5 }, heavy: true },
  { name: 'channel', path: api(`/users/channel/${landmarks.bigChannel}`), goal: { ratio: 0.5 } },
  { name: "channel's videos", path: api(`/videos/?${page(1)}&userId=${landmarks.bigChannelId}`), goal: { ratio: 0.5 } },
  { name: 'trending', path: api(`/videos/trending?${page(1)}`), goal: { p99: 50 }, optional: true },
  { name: 'related videos', path: api(`/videos/${popularVideo}/related`), goal: { p99: 50 }, optional: true },
  { name: 'subscriptions feed', path: api(`/feed/subscriptions?${page(1)}`), headers: bearer, goal: { p99: 50 }, optional: true },
  { name: 'notifications', path: api(`/notifications?${page(1)}`), headers: bearer, goal: { p99: 50 }, optional: true },
].filter((t) => !ONLY || t.name.includes(ONLY));

// 3. Single requests, and the bodies for the bare server.
const bodies = {};
const measured = [];
for (const t of targets) {
  const res = await fetch(`${server.base}${t.path}`, { headers: t.headers });
  const body = await res.text();
  if (res.status !== 200) {
    if (t.optional && res.status === 404) continue;
    throw new Error(`${t.name}: ${t.path} answered ${res.status}: ${body.slice(0, 300)}`);
  }
  bodies[t.path] = body;
  const times = [];
  for (let i = 0; i < SINGLE_RUNS + 3; i++) {
    const start = process.hrtime.bigint();
    await (await fetch(`${server.base}${t.path}`, { headers: t.headers })).arrayBuffer();
    if (i >= 3) times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  measured.push({ ...t, singleMs: median(times) });
}
const bodiesFile = path.join(os.tmpdir(), `lists-bench-bodies-${process.pid}.json`);
fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
const bare = fork(path.join(here, 'lib/bare-server.mjs'), [String(barePort), bodiesFile], { stdio: 'ignore' });
await new Promise((resolve, reject) => {
  bare.once('message', resolve);
  bare.once('exit', (c) => reject(new Error(`bare server exited ${c}`)));
});

// 4. Under load, each beside the bare route.
const results = [];
let healthP99Worst = 0;
try {
  for (const t of measured) {
    const probe = t.heavy ? probeHealthcheck(server.base) : null;
    const real = await load(`${server.base}${t.path}`, t.headers);
    const health = probe ? await probe.stop() : null;
    const ceiling = await load(`http://127.0.0.1:${barePort}${t.path}`);
    const ratio = real.rps / ceiling.rps;
    if (health) healthP99Worst = Math.max(healthP99Worst, health.p99);
    const row = { ...t, real, ceiling, ratio, health };
    results.push(row);
    console.log(
      `${t.name.padEnd(24)} single ${fmt(t.singleMs)} ms | ${real.rps.toFixed(0)} req/s = ${ratio.toFixed(2)}x bare (${ceiling.rps.toFixed(0)}) | p50 ${real.p50} ms p99 ${real.p99} ms | errors ${real.errors}${health ? ` | healthcheck p99 ${fmt(health.p99)} ms` : ''} | peak RSS so far ${Math.round(server.peakRss() / 1048576)} MB`,
    );
  }
} finally {
  bare.kill();
  await server.stop();
  fs.rmSync(bodiesFile, { force: true });
}

// 5. Figures, with their targets.
const figures = [];
for (const r of results) {
  figures.push({ name: `${r.name}: single request`, value: round(r.singleMs), unit: 'ms' });
  figures.push({
    name: `${r.name}: throughput`,
    value: Math.round(r.real.rps),
    unit: 'req/s',
    baseline: Math.round(r.ceiling.rps),
    ratio: round(r.ratio),
    ...(r.goal.ratio ? { target: `>= ${r.goal.ratio}x`, pass: r.ratio >= r.goal.ratio } : {}),
  });
  // A run in which no request came back has no latency to show, and misses any latency target.
  const answered = r.real.rps > 0;
  figures.push({
    name: `${r.name}: p99`,
    value: r.real.p99,
    unit: 'ms',
    ...(r.goal.p99 ? { target: `< ${r.goal.p99} ms`, pass: answered && r.real.p99 < r.goal.p99 } : {}),
  });
  figures.push({ name: `${r.name}: errors`, value: r.real.errors, unit: 'count', target: '0', pass: r.real.errors === 0 });
}
figures.push({ name: 'healthcheck p99 while the heaviest lists run', value: round(healthP99Worst), unit: 'ms', target: '< 50 ms', pass: healthP99Worst < 50 });
figures.push({
  name: 'API process peak RSS',
  value: Math.round(server.peakRss() / 1048576),
  unit: 'MB',
  target: '< 300 MB',
  pass: server.peakRss() < 300 * 1048576,
});
const details = {
  db: DB,
  answerCache: !UNCACHED,
  sqliteReadWorkers: process.env.SQLITE_READ_WORKERS ?? 'one per core',
  scale: SCALE,
  videos: catalogue.videos,
  connections: CONNECTIONS,
  seconds: SECONDS,
  loadAverage: os.loadavg().map((l) => round(l)),
};
fs.writeFileSync(
  path.join(resultsDir, `lists-${variant}.json`),
  JSON.stringify({ benchmark: 'lists', date: new Date().toISOString(), ...details, figures }, null, 2),
);
writeFigures(`lists (${DB}${UNCACHED ? ', without the answer cache' : ''})`, figures, details);
const failed = figures.filter((f) => f.pass === false);
console.log(`\n${figures.length} figures, ${failed.length} missing their target${failed.length ? `: ${failed.map((f) => f.name).join('; ')}` : ''}`);
console.log(
  `API process peak RSS ${Math.round(server.peakRss() / 1048576)} MB; load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
if (SMOKE && results.some((r) => r.real.errors > 0)) process.exit(1);

async function getJson(p) {
  const res = await fetch(`${server.base}${p}`);
  if (!res.ok) throw new Error(`${p} answered ${res.status}`);
  return res.json();
}

async function load(url, headers = {}) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers, timeout: 30 });
  return {
    rps: r.requests.total / SECONDS,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx,
  };
}

function fmt(x) {
  return x.toFixed(1);
}
