#!/usr/bin/env node
/**
 * Lives, end to end on the built server with its in-process RTMP ingest:
 *  (a) start-up: from the encoder's first byte (ffmpeg started) to the first playable segment listed
 *      (a rung playlist naming a segment, found through GET /videos/{id}'s hls.url), over several
 *      lives (target p50 under 3 s);
 *  (b) one 1080p30 live with its ladder for the rest of the run: the live edge delay (wall time
 *      since the push started minus the media time the newest listed segment ends at; targets p50
 *      under 3 s, p95 under 5 s), the CPU of the server's ffmpeg for it as a share of one core, and
 *      hls.js's own `latency` in Chromium, configured as the site's player is (target under 5 s);
 *  (c) simulated viewers on that one API process, each fetching the playlist every second and every
 *      new segment as a player does: errors, playlist p99 (target under 50 ms);
 *  (d) segment throughput: 50 connections fetching the listed segments as fast as they are served,
 *      from the API and from nginx serving the same files from disk, in turn (target 0.5x nginx).
 * The encoder sends a clip encoded before the run (copied, looped), so the pushing ffmpeg costs
 * next to nothing beside the server it measures.
 *
 * Usage: npm run build && node bench/live.mjs [--quick] [--viewers 500] [--seconds 30]
 * --quick: 720p, fewer lives and viewers, short runs; checks the script, proves little.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { chromium } from '@playwright/test';
import { arg, flag, root } from './lib/cli.mjs';
import { ffmpegPidsUnder, parseMedia, rungUrls } from './lib/live-stream.mjs';
import { startStaticNginx } from './lib/nginx.mjs';
import { cpuMsOf, median, round } from './lib/probe.mjs';
import { writeFigures } from './lib/results.mjs';
import { freePort, startServer } from './lib/server-process.mjs';

const QUICK = flag('quick');
const STARTS = Number(arg('starts', QUICK ? 2 : 5));
const VIEWERS = Number(arg('viewers', QUICK ? 50 : 500));
const SECONDS = Number(arg('seconds', QUICK ? 8 : 30));
const HEIGHT = QUICK ? 720 : 1080;
const JOIN_SECONDS = QUICK ? 2 : 10;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
};

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'reelhouse-bench-live-'));
const dataDir = path.join(work, 'data');
const clip = path.join(work, `clip-${HEIGHT}p30.flv`);
console.log(`encoding the ${HEIGHT}p30 clip the encoder will send...`);
const encodeClip = spawnSync('ffmpeg', [
  ...['-hide_banner', '-loglevel', 'error', '-y'],
  ...['-f', 'lavfi', '-i', `testsrc2=size=${(HEIGHT * 16) / 9}x${HEIGHT}:rate=30`, '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
  ...['-t', QUICK ? '10' : '20', '-c:v', 'libx264', '-preset', 'veryfast', '-b:v', HEIGHT >= 1080 ? '4500k' : '2500k', '-g', '30', '-bf', '0'],
  ...['-c:a', 'aac', '-b:a', '128k', '-f', 'flv', clip],
]);
if (encodeClip.status !== 0) throw new Error(`could not encode the clip: ${encodeClip.stderr}`);

const port = await freePort();
const rtmpPort = await freePort();
const server = await startServer({
  port,
  env: { DATA_DIR: dataDir, LIVE_INGEST: 'in-process', LIVE_RTMP_PORT: String(rtmpPort), LIVE_RECONNECT_SECONDS: '2', PUBLIC_URL: `http://127.0.0.1:${port}` },
});
const api = (p) => `${server.base}/api/v1${p}`;
const encoders = new Set();
let nginx = null;
let browser = null;

async function call(method, p, { token, body } = {}) {
  const res = await fetch(api(p), {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${json.message}`);
  return json.data;
}

async function signUp() {
  const form = new FormData();
  for (const [k, v] of Object.entries({ fullName: 'Live Bench', username: 'livebench', email: 'live@bench.example', password: 'live-bench-password' }))
    form.append(k, v);
  const reg = await fetch(api('/users/register'), { method: 'POST', body: form });
  if (!reg.ok) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const res = await fetch(api('/users/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-return-tokens': 'true' },
    body: JSON.stringify({ email: 'live@bench.example', password: 'live-bench-password' }),
  });
  if (!res.ok) throw new Error(`login: ${res.status} ${await res.text()}`);
  return (await res.json()).data.accessToken;
}

/** An encoder: the clip looped, in real time, copied (no encoding in the pushing process). */
function push(key) {
  const encoder = spawn(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', clip, '-c', 'copy', '-f', 'flv', `rtmp://127.0.0.1:${rtmpPort}/live/${key}`],
    {
      stdio: 'ignore',
    },
  );
  encoders.add(encoder);
  encoder.once('exit', () => encoders.delete(encoder));
  return encoder;
}

async function stopEncoder(encoder) {
  if (encoder.exitCode !== null) return;
  encoder.kill('SIGKILL');
  await new Promise((r) => encoder.once('exit', r));
}

/** Waits until the live's video answers an hls.url whose first rung lists a segment; its time. */
async function firstPlayable(videoId, token, t0, timeoutMs = 30_000) {
  let master = null;
  while (Date.now() - t0 < timeoutMs) {
    if (!master) {
      const video = await call('GET', `/videos/${videoId}`, { token });
      if (video.live?.status === 'live' && video.hls?.url) master = video.hls.url;
    }
    if (master) {
      const res = await fetch(master);
      if (res.ok) {
        const rungs = await rungUrls(master);
        const list = await fetch(rungs[0]);
        if (list.ok && parseMedia(await list.text(), rungs[0]).segments.length > 0) return { ms: Date.now() - t0, master };
      }
    }
    await sleep(50);
  }
  throw new Error(`no playable segment for ${videoId} within ${timeoutMs} ms`);
}

const figures = [];
const figure = (name, value, unit, extra = {}) => {
  figures.push({ name, value: round(value), unit, ...extra });
  const target = extra.target ? ` (target ${extra.target}: ${extra.pass ? 'met' : 'NOT met'})` : '';
  console.log(`${name}: ${round(value)} ${unit}${extra.ratio !== undefined ? ` = ${round(extra.ratio)}x ${extra.baselineName}` : ''}${target}`);
};

try {
  const token = await signUp();

  // (a) Start-up, one live at a time.
  const starts = [];
  for (let i = 0; i < STARTS; i++) {
    const { video, streamKey } = await call('POST', '/live', {
      token,
      body: { title: `Start-up ${i + 1}`, description: 'A live for the benchmark', saveReplay: false },
    });
    const t0 = Date.now();
    const encoder = push(streamKey);
    starts.push((await firstPlayable(video._id, token, t0)).ms);
    await stopEncoder(encoder);
    await call('POST', `/live/${video._id}/end`, { token });
  }
  const startP50 = median(starts);
  figure('first byte to first playable segment, p50', startP50 / 1000, 's', { target: '< 3 s', pass: startP50 < 3000, samples: starts });

  // (b) The long live.
  const { video, streamKey } = await call('POST', '/live', {
    token,
    body: { title: `${HEIGHT}p30 live`, description: 'A live for the benchmark', saveReplay: false },
  });
  const pushedAt = Date.now();
  push(streamKey);
  const { master } = await firstPlayable(video._id, token, pushedAt);
  const rungs = await rungUrls(master);
  const edges = [];
  let edgeRunning = true;
  const edgeLoop = (async () => {
    while (edgeRunning) {
      const list = parseMedia(await (await fetch(rungs[0])).text(), rungs[0]);
      // Segments before the window's first are 1 s each (the segment length); the window's own are summed.
      const mediaEnd = list.sequence * 1 + list.segments.reduce((t, s) => t + s.duration, 0);
      edges.push((Date.now() - pushedAt) / 1000 - mediaEnd);
      await sleep(250);
    }
  })();
  await sleep(3000);
  const ffmpegs = ffmpegPidsUnder(server.pid);
  const cpuBefore = ffmpegs.reduce((t, pid) => t + cpuMsOf(pid), 0);
  const apiCpuBefore = cpuMsOf(server.pid);
  const cpuFrom = Date.now();

  // hls.js in Chromium, as the site's player sets it up for a live.
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
  const page = await browser.newPage();
  await page.route(`${server.base}/bench-player`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><video muted playsinline></video>' }),
  );
  await page.goto(`${server.base}/bench-player`);
  await page.addScriptTag({ path: createRequire(path.join(root, 'web/package.json')).resolve('hls.js/dist/hls.min.js') });
  await page.evaluate((src) => {
    const hls = new globalThis.Hls({ lowLatencyMode: true, liveSyncDurationCount: 2, liveMaxLatencyDurationCount: 6, maxLiveSyncPlaybackRate: 1.5 });
    globalThis.benchHls = hls;
    hls.loadSource(src);
    hls.attachMedia(globalThis.document.querySelector('video'));
    void globalThis.document.querySelector('video').play();
  }, master);
  const latencies = [];
  const browserUntil = Date.now() + Math.max(10_000, SECONDS * 500);
  await page.waitForFunction(() => globalThis.document.querySelector('video').currentTime > 1, null, { timeout: 30_000 });
  while (Date.now() < browserUntil) {
    const latency = await page.evaluate(() => globalThis.benchHls.latency);
    if (Number.isFinite(latency) && latency > 0) latencies.push(latency);
    await sleep(500);
  }
  await browser.close();
  browser = null;
  const hlsLatency = median(latencies);
  figure('hls.js latency in Chromium, median', hlsLatency, 's', { target: '< 5 s', pass: hlsLatency < 5, samples: latencies.length });

  // (c) Viewers, each as a player: the playlist every second, every new segment once. Node's own
  // HTTP client with kept-alive connections: lighter than fetch, so the viewers, which share this
  // machine's two cores with the server, take less of them from it.
  const agent = new http.Agent({ keepAlive: true, maxSockets: VIEWERS * 2 });
  // A segment's bytes are counted, not kept: a player hands them to its decoder, not to a copy.
  const get = (url, keep) =>
    new Promise((resolve, reject) => {
      http
        .get(url, { agent }, (res) => {
          const chunks = [];
          let bytes = 0;
          res.on('data', (c) => {
            bytes += c.length;
            if (keep) chunks.push(c);
          });
          res.on('end', () => resolve({ ok: res.statusCode === 200, status: res.statusCode, bytes, body: keep ? Buffer.concat(chunks) : null }));
          res.on('error', reject);
        })
        .on('error', reject);
    });
  const playlistMs = [];
  const segmentMs = [];
  let errors = 0;
  let segmentBytes = 0;
  const viewersUntil = Date.now() + (JOIN_SECONDS + SECONDS) * 1000;
  const viewer = async (n) => {
    const url = rungs[n % rungs.length];
    let last = -1;
    // Viewers arrive over the first ten seconds, as an audience does, not all in one.
    await sleep((n * JOIN_SECONDS * 1000) / VIEWERS);
    while (Date.now() < viewersUntil) {
      const started = performance.now();
      try {
        const res = await get(url, true);
        if (!res.ok) throw new Error(String(res.status));
        const list = parseMedia(res.body.toString('utf8'), url);
        playlistMs.push(performance.now() - started);
        const fresh = list.segments.filter((s) => s.sequence > last).slice(last < 0 ? -3 : 0);
        if (last < 0 && list.init) fresh.unshift({ url: list.init, sequence: -1 });
        for (const s of fresh) {
          const t = performance.now();
          const seg = await get(s.url, false);
          if (!seg.ok) throw new Error(String(seg.status));
          const bytes = seg.bytes;
          segmentMs.push(performance.now() - t);
          segmentBytes += bytes;
          last = Math.max(last, s.sequence);
        }
      } catch {
        errors++;
      }
      await sleep(Math.max(0, 1000 - (performance.now() - started)));
    }
  };
  const viewersCpuFrom = cpuMsOf(server.pid);
  const viewersFrom = Date.now();
  await Promise.all(Array.from({ length: VIEWERS }, (_, n) => viewer(n)));
  agent.destroy();
  const apiCoresWithViewers = (cpuMsOf(server.pid) - viewersCpuFrom) / (Date.now() - viewersFrom);
  const playlistP99 = quantile(playlistMs, 0.99);
  figure(`${VIEWERS} viewers: errors`, errors, 'errors', { target: '0', pass: errors === 0 });
  figure(`${VIEWERS} viewers: playlist p99`, playlistP99, 'ms', { target: '< 50 ms', pass: playlistP99 < 50, p50: round(quantile(playlistMs, 0.5)) });
  console.log(`  playlist p50 ${round(quantile(playlistMs, 0.5))} ms, p90 ${round(quantile(playlistMs, 0.9))} ms over ${playlistMs.length} requests`);
  figure(`${VIEWERS} viewers: segment p99`, quantile(segmentMs, 0.99), 'ms', { p50: round(quantile(segmentMs, 0.5)), megabytes: round(segmentBytes / 1e6) });
  figure(`${VIEWERS} viewers: the API process's CPU meanwhile`, apiCoresWithViewers, 'cores');

  const wall = Date.now() - cpuFrom;
  const share = (ffmpegs.reduce((t, pid) => t + cpuMsOf(pid), 0) - cpuBefore) / wall;
  figure(`CPU of one ${HEIGHT}p30 live with its ladder (the server's ffmpeg)`, share, 'cores', {
    apiProcessCores: round((cpuMsOf(server.pid) - apiCpuBefore) / wall),
  });

  edgeRunning = false;
  await edgeLoop;
  const edgeP50 = quantile(edges, 0.5);
  const edgeP95 = quantile(edges, 0.95);
  figure('live edge delay, p50', edgeP50, 's', { target: '< 3 s', pass: edgeP50 < 3, samples: edges.length });
  figure('live edge delay, p95', edgeP95, 's', { target: '< 5 s', pass: edgeP95 < 5 });

  // (d) Segment throughput, the API against nginx on the same files, twice each in turn.
  const listed = [];
  for (const rung of rungs) listed.push(...parseMedia(await (await fetch(rung)).text(), rung).segments.map((s) => new URL(s.url).pathname));
  nginx = await startStaticNginx({ port: await freePort(), mediaDir: path.join(dataDir, 'media') });
  const cannon = async (base) => {
    const r = await autocannon({ url: base, connections: 50, duration: QUICK ? 3 : 8, requests: listed.map((p) => ({ method: 'GET', path: p })), timeout: 30 });
    return { rps: r.requests.average, errors: r.errors + r.non2xx };
  };
  const apiRuns = [];
  const nginxRuns = [];
  for (let i = 0; i < 2; i++) {
    apiRuns.push(await cannon(server.base));
    nginxRuns.push(await cannon(`http://127.0.0.1:${nginx.port}`));
  }
  const apiRps = median(apiRuns.map((r) => r.rps));
  const nginxRps = median(nginxRuns.map((r) => r.rps));
  figure('segment throughput, API', apiRps, 'req/s', {
    baseline: round(nginxRps),
    baselineName: 'nginx',
    ratio: apiRps / nginxRps,
    target: '>= 0.5x nginx',
    pass: apiRps / nginxRps >= 0.5,
    errors: apiRuns.reduce((t, r) => t + r.errors, 0),
  });
  figure('API process peak RSS', server.peakRss() / 1024 / 1024, 'MB');
  writeFigures('live', figures, { quick: QUICK, viewers: VIEWERS, seconds: SECONDS, height: HEIGHT });
} finally {
  await browser?.close().catch(() => {});
  for (const encoder of encoders) encoder.kill('SIGKILL');
  await nginx?.stop();
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
