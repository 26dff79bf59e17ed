#!/usr/bin/env node
/**
 * Real traffic: every request a different URL, so the answer cache helps only where real visitors
 * would meet it. Three kinds, each for its own run of 50 connections beside a bare Fastify route
 * answering a home-page body from memory in the same run:
 *   crawler   a uniformly random page of the whole home feed, signed out;
 *   searchers a word drawn by its frequency in titles (the catalogue's own Zipf vocabulary), page 1
 *             four times in five, else a page from 2 to 5, signed out;
 *   members   50 signed-in accounts, one per connection, each going round home, a random video, its
 *             comments, a search, the subscriptions feed and notifications.
 * The healthcheck is probed every 10 ms during each run and the API process's peak RSS is sampled.
 * Answers the answer cache gave (x-cache: hit), and signed-in answers made of a kept public answer and
 * the viewer's own fields (x-cache: shared), are counted and shown beside each figure.
 *
 * Usage: npm run build && node bench/traffic.mjs [--db sqlite|postgres] [--scale 1] [--reuse]
 *          [--seconds 15] [--connections 50] [--only crawler|searchers|members] [--quick] [--smoke]
 *   --quick: scale 0.05, 5 s runs. --smoke: a tiny catalogue and 1 s runs; checks the script only.
 * Writes bench/results/traffic-<db>.json.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { catalogueFor, resultsDir } from './lib/catalogue-source.mjs';
import { arg, flag } from './lib/cli.mjs';
import { cpuMsOf, probeHealthcheck, round } from './lib/probe.mjs';
import { makeVocabulary, mulberry32, zipfPicker } from './lib/random.mjs';
import { writeFigures } from './lib/results.mjs';
import { freePort, startServer } from './lib/server-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const QUICK = flag('quick');
const SMOKE = flag('smoke');
const DB = arg('db', 'sqlite');
const SCALE = Number(arg('scale', SMOKE ? '0.002' : QUICK ? '0.05' : '1'));
const SECONDS = Number(arg('seconds', SMOKE ? '1' : QUICK ? '5' : '15'));
const CONNECTIONS = Number(arg('connections', SMOKE ? '5' : '50'));
const ONLY = arg('only', '');
const PAGE_SIZE = 12;
const MEMBERS = Math.min(50, CONNECTIONS);
const port = Number(arg('port', String(await freePort())));
const barePort = await freePort();
const GOAL = { ratio: 0.1, p99: 100, healthP99: 50, rssMb: 400 };

const { summary: catalogue, env: catalogueEnv } = catalogueFor({ db: DB, scale: SCALE, reuse: flag('reuse') });
const server = await startServer({ port, env: catalogueEnv });
const api = (p) => `/api/v1${p}`;
const page = (n) => `pageNumber=${n}&pageSize=${PAGE_SIZE}`;
const rand = mulberry32(7);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];

// The catalogue's vocabulary, made by the same seeded steps, so word i is the i-th most frequent.
const vocabulary = makeVocabulary(mulberry32(catalogue.seed ?? 42), 20_000);
const pickWord = zipfPicker(mulberry32(11), vocabulary.length, 1.05);
const searchPath = () => {
  const pageNumber = rand() < 0.8 ? 1 : 2 + Math.floor(rand() * 4);
  return api(`/videos/?${page(pageNumber)}&query=${encodeURIComponent(vocabulary[pickWord()])}`);
};
const feedPages = Math.max(1, Math.ceil(catalogue.listedVideos / PAGE_SIZE));
const crawlerPath = () => api(`/videos/?${page(1 + Math.floor(rand() * feedPages))}`);

// Videos for the members to open: the first video of pages spread over the whole feed.
const homeBody = await (await fetch(`${server.base}${api(`/videos/?${page(1)}`)}`)).text();
const videoIds = [];
for (let i = 0; i < (SMOKE ? 5 : 200); i++) {
  const res = await fetch(`${server.base}${crawlerPath()}`);
  for (const v of (await res.json()).data.videos) videoIds.push(v._id);
}
const tokens = [];
for (let i = 1; i <= MEMBERS; i++) {
  const res = await fetch(`${server.base}${api('/users/login')}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-return-tokens': 'true' },
    body: JSON.stringify({ email: `user${i}@catalogue.example`, password: 'catalogue-password' }),
  });
  if (res.status !== 200) throw new Error(`user${i} could not sign in: ${res.status} ${await res.text()}`);
  tokens.push((await res.json()).data.accessToken);
}
const memberSteps = [
  () => api(`/videos/?${page(1)}`),
  (c) => api(`/videos/${(c.video = pick(videoIds))}`),
  (c) => api(`/comments/${c.video ?? pick(videoIds)}?${page(1)}`),
  () => searchPath(),
  () => api(`/feed/subscriptions?${page(1)}`),
  () => api(`/notifications?${page(1)}`),
];

let nextMember = 0;
const kinds = [
  { name: 'crawler', path: crawlerPath },
  { name: 'searchers', path: searchPath },
  {
    name: 'members',
    path: (c) => {
      c.token ??= tokens[nextMember++ % tokens.length];
      c.step = ((c.step ?? -1) + 1) % memberSteps.length;
      return memberSteps[c.step](c);
    },
    signedIn: true,
  },
].filter((k) => !ONLY || k.name === ONLY);

const bodiesFile = path.join(os.tmpdir(), `traffic-bench-bodies-${process.pid}.json`);
fs.writeFileSync(bodiesFile, JSON.stringify({ '/': homeBody }));
const bare = fork(path.join(here, 'lib/bare-server.mjs'), [String(barePort), bodiesFile], { stdio: 'ignore' });
await new Promise((resolve, reject) => {
  bare.once('message', resolve);
  bare.once('exit', (c) => reject(new Error(`bare server exited ${c}`)));
});

const results = [];
try {
  for (const kind of kinds) {
    const probe = probeHealthcheck(server.base);
    const real = await load(server.base, kind, server.pid);
    const health = await probe.stop();
    const ceiling = await load(`http://127.0.0.1:${barePort}`, { path: () => '/' }, bare.pid);
    const row = { kind: kind.name, real, ceiling, ratio: real.rps / ceiling.rps, health };
    results.push(row);
    console.log(
      `${kind.name.padEnd(10)} ${real.rps.toFixed(0)} req/s = ${row.ratio.toFixed(3)}x bare (${ceiling.rps.toFixed(0)}) | p50 ${real.p50} ms p99 ${real.p99} ms | ` +
        `errors ${real.errors} | cache answered ${(real.cached * 100).toFixed(1)}%, public part shared ${(real.shared * 100).toFixed(1)}% | healthcheck p99 ${health.p99.toFixed(1)} ms | ` +
        `API CPU ${real.cpuPerRequest.toFixed(3)} ms/request (bare ${ceiling.cpuPerRequest.toFixed(3)}) | peak RSS so far ${Math.round(server.peakRss() / 1048576)} MB`,
    );
  }
} finally {
  bare.kill();
  await server.stop();
  fs.rmSync(bodiesFile, { force: true });
}

const figures = [];
for (const r of results) {
  const answered = r.real.rps > 0;
  const cached = `${(r.real.cached * 100).toFixed(1)}% from the answer cache, ${(r.real.shared * 100).toFixed(1)}% with its public part from it`;
  figures.push({
    name: `${r.kind}: throughput (${cached})`,
    value: Math.round(r.real.rps),
    unit: 'req/s',
    baseline: Math.round(r.ceiling.rps),
    ratio: Math.round(r.ratio * 1000) / 1000,
    target: `>= ${GOAL.ratio}x`,
    pass: r.ratio >= GOAL.ratio,
  });
  figures.push({
    name: `${r.kind}: API process CPU per request (all threads)`,
    value: round(r.real.cpuPerRequest * 1000) / 1000,
    unit: 'ms',
    baseline: round(r.ceiling.cpuPerRequest * 1000) / 1000,
    ratio: Math.round((r.ceiling.cpuPerRequest / r.real.cpuPerRequest) * 1000) / 1000,
  });
  figures.push({ name: `${r.kind}: p50`, value: r.real.p50, unit: 'ms' });
  figures.push({ name: `${r.kind}: p99`, value: r.real.p99, unit: 'ms', target: `< ${GOAL.p99} ms`, pass: answered && r.real.p99 < GOAL.p99 });
  figures.push({ name: `${r.kind}: errors`, value: r.real.errors, unit: 'count', target: '0', pass: r.real.errors === 0 });
  figures.push({
    name: `${r.kind}: healthcheck p99 meanwhile`,
    value: round(r.health.p99),
    unit: 'ms',
    target: `< ${GOAL.healthP99} ms`,
    pass: r.health.p99 < GOAL.healthP99,
  });
}
const peakMb = Math.round(server.peakRss() / 1048576);
figures.push({ name: 'API process peak RSS', value: peakMb, unit: 'MB', target: `< ${GOAL.rssMb} MB`, pass: peakMb < GOAL.rssMb });
const details = {
  db: DB,
  scale: SCALE,
  videos: catalogue.videos,
  connections: CONNECTIONS,
  seconds: SECONDS,
  sqliteReadWorkers: process.env.SQLITE_READ_WORKERS ?? 'one per core',
  loadAverage: os.loadavg().map((l) => round(l)),
};
fs.writeFileSync(
  path.join(resultsDir, `traffic-${DB}.json`),
  JSON.stringify({ benchmark: 'traffic', date: new Date().toISOString(), ...details, figures }, null, 2),
);
writeFigures(`real traffic (${DB})`, figures, details);
const failed = figures.filter((f) => f.pass === false);
console.log(`\n${figures.length} figures, ${failed.length} missing their target${failed.length ? `: ${failed.map((f) => f.name).join('; ')}` : ''}`);
if (SMOKE && results.some((r) => r.real.errors > 0)) process.exit(1);

/** One run of the given kind: each request's path made fresh by kind.path(connection context). */
async function load(base, kind, pid) {
  const cpuBefore = cpuMsOf(pid);
  let cached = 0;
  let shared = 0;
  let answers = 0;
  const r = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    timeout: 30,
    requests: [
      {
        setupRequest: (req, context) => {
          req.path = kind.path(context);
          if (kind.signedIn) req.headers = { ...req.headers, authorization: `Bearer ${context.token}` };
          return req;
        },
        onResponse: (_status, _body, _context, headers) => {
          answers++;
          if (headers?.['x-cache'] === 'hit') cached++;
          // A signed-in answer made of the kept public answer and the viewer's own fields, read fresh.
          else if (headers?.['x-cache'] === 'shared') shared++;
        },
      },
    ],
  });
  return {
    rps: r.requests.total / SECONDS,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx,
    cached: answers ? cached / answers : 0,
    shared: answers ? shared / answers : 0,
    cpuPerRequest: r.requests.total ? (cpuMsOf(pid) - cpuBefore) / r.requests.total : 0,
  };
}
