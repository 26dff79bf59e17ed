#!/usr/bin/env node
/**
 * `npm run bench`: every benchmark in turn, each measuring its own baseline in the same run. Writes
 * bench/results/latest.json (per benchmark: its figures with name, value, unit, baseline, ratio,
 * target and pass; or, for one that only prints, the end of its output) and refreshes the "Latest
 * run" section of docs/benchmarks.md from it, with the machine's description and the date.
 *
 * Usage: npm run bench [-- --quick] [-- --only <file part>]
 *   --quick: the short form of each benchmark (a few minutes in all); otherwise the full runs.
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderLatest, replaceLatestSection } from './lib/report.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
const onlyAt = args.indexOf('--only');
const ONLY = onlyAt >= 0 ? args[onlyAt + 1] : '';

const benches = [
  { file: 'web-bundle.mjs', full: [], quick: ['--no-build'] },
  { file: 'lists.mjs', full: ['--db', 'sqlite'], quick: ['--db', 'sqlite', '--quick'] },
  { file: 'lists.mjs', full: ['--db', 'postgres'], quick: ['--db', 'postgres', '--quick'] },
  { file: 'lists.mjs', full: ['--db', 'sqlite', '--reuse', '--uncached'], quick: null },
  { file: 'lists.mjs', full: ['--db', 'postgres', '--reuse', '--uncached'], quick: null },
  { file: 'traffic.mjs', full: ['--db', 'sqlite', '--reuse'], quick: ['--db', 'sqlite', '--quick'] },
  { file: 'traffic.mjs', full: ['--db', 'postgres', '--reuse'], quick: ['--db', 'postgres', '--quick'] },
  { file: 'load.mjs', full: [], quick: ['--seconds', '15', '--connections', '100'] },
  { file: 'pipeline.mjs', full: [], quick: ['--runs', '1', '--seconds', '20', '--playable-runs', '1'] },
  { file: 'playable.mjs', full: [], quick: ['--smoke'] },
  { file: 'tus-upload.mjs', full: [], quick: ['--gib', '0.25'] },
  { file: 'live.mjs', full: [], quick: ['--quick'] },
  { file: 'federation.mjs', full: [], quick: ['--quick'] },
].filter((b) => (!QUICK || b.quick) && (!ONLY || `${b.file} ${b.full.join(' ')}`.includes(ONLY)));

const startedAt = new Date();
const loadBefore = os.loadavg();
const entries = [];
for (const bench of benches) {
  const benchArgs = QUICK ? bench.quick : bench.full;
  const label = [bench.file, ...benchArgs].join(' ');
  console.log(`\n=== ${label} ===`);
  const resultsFile = path.join(os.tmpdir(), `bench-figures-${process.pid}-${entries.length}.json`);
  const started = Date.now();
  const { code, tail } = await run(path.join(here, bench.file), benchArgs, resultsFile);
  const entry = { command: `node bench/${label}`, exitCode: code, seconds: Math.round((Date.now() - started) / 1000) };
  if (fs.existsSync(resultsFile)) {
    Object.assign(entry, JSON.parse(fs.readFileSync(resultsFile, 'utf8')));
    fs.rmSync(resultsFile);
  } else {
    Object.assign(entry, { benchmark: bench.file.replace(/\.mjs$/, ''), figures: [], output: tail });
  }
  entries.push(entry);
}

const latest = {
  date: startedAt.toISOString(),
  mode: QUICK ? 'quick' : 'full',
  machine: describeMachine(loadBefore),
  benchmarks: entries,
};
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(path.join(here, 'results/latest.json'), JSON.stringify(latest, null, 2));
const docs = path.join(root, 'docs/benchmarks.md');
fs.writeFileSync(docs, replaceLatestSection(fs.readFileSync(docs, 'utf8'), renderLatest(latest)));

const figures = entries.flatMap((e) => e.figures);
const missed = figures.filter((f) => f.pass === false);
console.log(
  `\n${entries.length} benchmarks, ${figures.length} figures, ${missed.length} missing their target; bench/results/latest.json and docs/benchmarks.md written`,
);
process.exit(entries.some((e) => e.exitCode !== 0) ? 1 : 0);

/** Runs one benchmark, its output shown as it comes and its last lines kept. */
function run(file, benchArgs, resultsFile) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file, ...benchArgs], {
      cwd: root,
      env: { ...process.env, BENCH_RESULTS_FILE: resultsFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      process.stdout.write(d);
      out = (out + d).slice(-8000);
    });
    child.on('close', (code) => resolve({ code: code ?? 1, tail: out.trim().split('\n').slice(-30).join('\n') }));
  });
}

function describeMachine(loadBefore) {
  let ffmpeg = 'not found';
  try {
    ffmpeg = execFileSync('ffmpeg', ['-version'], { encoding: 'utf8' })
      .split('\n')[0]
      .replace(/^ffmpeg version (\S+).*/, 'ffmpeg $1');
  } catch {
    /* reported as not found */
  }
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 1024 ** 3),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    ffmpeg,
    loadAverageBefore: loadBefore.map((l) => Math.round(l * 10) / 10),
    loadAverageAfter: os.loadavg().map((l) => Math.round(l * 10) / 10),
  };
}
