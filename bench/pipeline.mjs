#!/usr/bin/env node
/**
 * Media pipeline benchmark.
 *  (a) The HLS ladder as the pipeline makes it (one ffmpeg process, then playlist checks and the
 *      master playlist) against one plain hand-written ffmpeg command making the same rungs, runs
 *      alternating, medians and their ratio. The source is browser-playable H.264 at 1080p within
 *      the 1080p rung's caps (keyframes every 2 s), so the pipeline copies it into that rung instead
 *      of encoding it (target: pipeline CPU time <= 0.6x plain).
 *  (b) Time from "upload complete" (source stored, row committed) to playable (fast start done,
 *      row ready), through the real job queue (target: under 3 s).
 *
 * Usage: npm run build && node bench/pipeline.mjs [--runs 3] [--seconds 60] [--playable-runs 5]
 * Without a build it re-runs itself under tsx against the TypeScript sources.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { insertProcessingVideo } from './lib/processing-video.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fromSource = process.env.PIPELINE_BENCH_SOURCE === '1';
const built = fs.existsSync(path.join(root, 'server/dist/modules/pipeline/video-pipeline.js'));
if (!built && !fromSource) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, PIPELINE_BENCH_SOURCE: '1' },
    cwd: root,
  });
  process.exit(r.status ?? 1);
}
const mod = (p) => import(pathToFileURL(path.join(root, fromSource ? `server/src/${p}.ts` : `server/dist/${p}.js`)).href);

const { makeClip } = await mod('media/fixtures');
const { probeMedia } = await mod('media/probe');
const { makeLadder } = await mod('media/video-tools');
const { MediaTools } = await mod('media/media-tools');
const { openDatabase } = await mod('db/client');
const { LocalStorage } = await mod('storage/local-storage');
const { LocalQueue } = await mod('jobs/local-queue');
const { VideoPipeline } = await mod('modules/pipeline/video-pipeline');

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const RUNS = arg('runs', 3);
const SECONDS = arg('seconds', 60);
const PLAYABLE_RUNS = arg('playable-runs', 5);
const ffmpegPath = process.env.FFMPEG_PATH ?? 'ffmpeg';
const ffprobePath = process.env.FFPROBE_PATH ?? 'ffprobe';
const tools = new MediaTools({ ffmpegPath, ffprobePath });
const silent = { debug() {}, info() {}, warn() {}, error() {} };

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const secs = (ms) => `${(ms / 1000).toFixed(2)} s`;

/**
 * CPU time (ms) of this process's finished children (utime+stime of reaped children, from
 * /proc/self/stat) plus this process's own. Unlike wall time it does not depend on what else the
 * machine is running, which on a shared two-core box matters more than anything.
 */
function cpuMs() {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of stat (cutime, cstime), counted from after the command name.
    children = ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    return NaN;
  }
  return children + (own.user + own.system) / 1000;
}

function run(bin, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d).length > 8000 && (err = err.slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${bin} exited ${code}: ${err.slice(-500)}`))));
  });
}

/**
 * The baseline: what someone would type by hand for the same five-rung ladder from a 1080p30
 * source (same encoder settings, bitrates, keyframes and segments as the pipeline's plan).
 */
function plainLadderArgs(input, outDir) {
  return [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-loglevel',
    'error',
    '-i',
    input,
    '-filter_complex',
    '[0:v:0]fps=30,split=5[a][b][c][d][e];' +
      '[a]scale=426:240:flags=bicubic,format=yuv420p[v0];[b]scale=640:360:flags=bicubic,format=yuv420p[v1];' +
      '[c]scale=854:480:flags=bicubic,format=yuv420p[v2];[d]scale=1280:720:flags=bicubic,format=yuv420p[v3];' +
      '[e]scale=1920:1080:flags=bicubic,format=yuv420p[v4]',
    '-map',
    '[v0]',
    '-map',
    '0:a:0',
    '-map',
    '[v1]',
    '-map',
    '0:a:0',
    '-map',
    '[v2]',
    '-map',
    '0:a:0',
    '-map',
    '[v3]',
    '-map',
    '0:a:0',
    '-map',
    '[v4]',
    '-map',
    '0:a:0',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-profile:v',
    'high',
    '-b:v:0',
    '400k',
    '-maxrate:v:0',
    '440k',
    '-bufsize:v:0',
    '800k',
    '-b:v:1',
    '800k',
    '-maxrate:v:1',
    '880k',
    '-bufsize:v:1',
    '1600k',
    '-b:v:2',
    '1400k',
    '-maxrate:v:2',
    '1540k',
    '-bufsize:v:2',
    '2800k',
    '-b:v:3',
    '2800k',
    '-maxrate:v:3',
    '3080k',
    '-bufsize:v:3',
    '5600k',
    '-b:v:4',
    '5000k',
    '-maxrate:v:4',
    '5500k',
    '-bufsize:v:4',
    '10000k',
    '-g',
    '60',
    '-keyint_min',
    '60',
    '-sc_threshold',
    '0',
    '-c:a',
    'aac',
    '-ac',
    '2',
    '-ar',
    '48000',
    '-b:a:0',
    '64k',
    '-b:a:1',
    '96k',
    '-b:a:2',
    '128k',
    '-b:a:3',
    '128k',
    '-b:a:4',
    '128k',
    '-f',
    'hls',
    '-hls_time',
    '4',
    '-hls_playlist_type',
    'vod',
    '-hls_segment_type',
    'fmp4',
    '-hls_flags',
    'independent_segments',
    '-hls_fmp4_init_filename',
    'init.mp4',
    '-hls_segment_filename',
    `${outDir}/%v/seg-%05d.m4s`,
    '-master_pl_name',
    'master.m3u8',
    '-var_stream_map',
    'v:0,a:0 v:1,a:1 v:2,a:2 v:3,a:3 v:4,a:4',
    `${outDir}/%v/index.m3u8`,
  ];
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-bench-'));
try {
  console.log(`machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown cpu'}, node ${process.version}`);
  const source = path.join(dir, 'source.mp4');
  let t = Date.now();
  await makeClip(ffmpegPath, source, { width: 1920, height: 1080, seconds: SECONDS, fps: 30, gop: 60, preset: 'veryfast', videoBitrate: '8M' });
  const probe = await probeMedia(source, { tools });
  console.log(`source: ${SECONDS} s 1920x1080 30 fps H.264/AAC, ${(probe.size / 1e6).toFixed(1)} MB, made in ${secs(Date.now() - t)}`);

  // (a) ladder
  const pipelineTimes = [];
  const plainTimes = [];
  const pipelineCpu = [];
  const plainCpu = [];
  let rungs = '';
  for (let i = 0; i < RUNS; i++) {
    for (const which of i % 2 === 0 ? ['pipeline', 'plain'] : ['plain', 'pipeline']) {
      const out = path.join(dir, `${which}-${i}`);
      fs.mkdirSync(out, { recursive: true });
      t = Date.now();
      const c0 = cpuMs();
      if (which === 'pipeline') {
        const result = await makeLadder(source, out, probe, { tools });
        rungs = result.plan.rungs.map((r, k) => (k === result.plan.passthrough ? `${r.name} (passthrough)` : r.name)).join(', ');
        pipelineTimes.push(Date.now() - t);
        pipelineCpu.push(cpuMs() - c0);
      } else {
        await run(ffmpegPath, plainLadderArgs(source, out));
        plainTimes.push(Date.now() - t);
        plainCpu.push(cpuMs() - c0);
      }
      console.log(`  ladder run ${i + 1} ${which}: ${secs(Date.now() - t)} wall, ${secs((which === 'pipeline' ? pipelineCpu : plainCpu).at(-1))} cpu`);
      fs.rmSync(out, { recursive: true, force: true });
    }
  }
  const ladderPipeline = median(pipelineTimes);
  const ladderPlain = median(plainTimes);
  // Each pipeline run against the plain run next to it: other load on the machine hits both alike.
  const pairedRatio = median(pipelineTimes.map((p, i) => p / plainTimes[i]));

  // (b) upload complete -> playable, through the real queue and pipeline
  const handle = await openDatabase({ database: { kind: 'sqlite', file: path.join(dir, 'bench.db') } });
  const storage = new LocalStorage(path.join(dir, 'media'));
  const queue = new LocalQueue({ db: handle.db, dialect: handle.dialect, logger: silent, pollIntervalMs: 200 });
  const pipeline = new VideoPipeline({ db: handle.db, storage, queue, media: tools, logger: silent, workDir: path.join(dir, 'work') });
  // Only the playable step is timed; the others would compete for the two cores afterwards.
  await queue.start({ 'video.playable': pipeline.handlers()['video.playable'] }, { concurrency: 1 });
  const ownerId = randomUUID();
  const now = Date.now();
  await handle.db
    .insertInto('users')
    .values({
      id: ownerId,
      username: 'bench',
      email: 'bench@example.com',
      full_name: 'Bench',
      password_hash: 'x',
      avatar_key: null,
      cover_key: null,
      is_demo: 0,
      subscribers_count: 0,
      videos_count: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const playableTimes = [];
  for (let i = 0; i < PLAYABLE_RUNS; i++) {
    const id = randomUUID();
    const sourceKey = `videos/${id}/source.mp4`;
    await storage.putFile(sourceKey, source);
    await insertProcessingVideo(handle.db, { id, ownerId, sourceKey, duration: probe.duration });
    t = Date.now(); // upload complete: source stored, row committed
    await pipeline.start(id);
    for (;;) {
      const row = await handle.db.selectFrom('videos').select(['status', 'video_key']).where('id', '=', id).executeTakeFirstOrThrow();
      if (row.status === 'ready' && row.video_key) break;
      if (row.status === 'failed') throw new Error('playable step failed');
      if (Date.now() - t > 60_000) throw new Error('playable step took over a minute');
      await new Promise((r) => setTimeout(r, 20));
    }
    playableTimes.push(Date.now() - t);
    console.log(`  time to playable run ${i + 1}: ${secs(Date.now() - t)}`);
  }
  await queue.close();
  await handle.close();
  const toPlayable = median(playableTimes);

  console.log('');
  console.log(`ladder (${rungs}), ${RUNS} runs each, alternating:`);
  console.log(
    `  wall: pipeline median ${secs(ladderPipeline)}  plain ffmpeg median ${secs(ladderPlain)}  ratio of medians ${(ladderPipeline / ladderPlain).toFixed(3)}x  median paired ratio ${pairedRatio.toFixed(3)}x`,
  );
  console.log(`  pipeline runs: ${pipelineTimes.map(secs).join(', ')}; plain runs: ${plainTimes.map(secs).join(', ')}`);
  const cpuRatio = median(pipelineCpu) / median(plainCpu);
  console.log(
    `  cpu time (ffmpeg + ffprobe + node): pipeline median ${secs(median(pipelineCpu))}  plain median ${secs(median(plainCpu))}  ratio ${cpuRatio.toFixed(3)}x (target <= 0.6x)`,
  );
  console.log(
    `  load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(`  encode speed: ${(SECONDS / (ladderPipeline / 1000)).toFixed(2)}x real time`);
  console.log(
    `time to playable (upload complete -> ready), ${PLAYABLE_RUNS} runs: median ${secs(toPlayable)} (min ${secs(Math.min(...playableTimes))}, max ${secs(Math.max(...playableTimes))}) (target < 3 s)`,
  );
  const ok = cpuRatio <= 0.6 && toPlayable < 3000;
  console.log(ok ? 'PASS' : 'OUTSIDE TARGET');
  process.exitCode = ok ? 0 : 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
