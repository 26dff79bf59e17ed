#!/usr/bin/env node
// The whole test suite: server tests on SQLite, the integration suite again on PostgreSQL, the
// scaled-out site (its own suite, so that nothing runs beside it), the web client's unit tests, and
// the end-to-end journeys in Chromium. Prints one closing line with the totals and exits non-zero if
// anything failed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'reelhouse-results-'));
const only = process.argv.slice(2);

const suites = [
  { name: 'server (SQLite)', cwd: 'server', cmd: 'npx', args: ['vitest', 'run', '--exclude', 'test/scale-out/**'], env: {}, kind: 'vitest' },
  {
    name: 'server integration (PostgreSQL)',
    cwd: 'server',
    cmd: 'npx',
    args: ['vitest', 'run', 'src/modules', 'test/integration'],
    env: { TEST_DB: 'postgres' },
    kind: 'vitest',
  },
  {
    name: 'scale-out (two API processes and two workers behind nginx, on Ceph S3)',
    cwd: 'server',
    cmd: 'npx',
    args: ['vitest', 'run', 'test/scale-out'],
    env: {},
    kind: 'vitest',
  },
  { name: 'web', cwd: 'web', cmd: 'npx', args: ['vitest', 'run'], env: {}, kind: 'vitest' },
  { name: 'end-to-end (Chromium)', cwd: '.', cmd: 'npx', args: ['playwright', 'test'], env: {}, kind: 'playwright' },
].filter((s) => !only.length || only.some((o) => s.name.toLowerCase().includes(o)));

let passed = 0;
let failed = 0;
let skipped = 0;
const summary = [];
for (const [i, suite] of suites.entries()) {
  const report = path.join(out, `${i}.json`);
  const reporterArgs = suite.kind === 'vitest' ? ['--reporter=default', '--reporter=json', `--outputFile.json=${report}`] : ['--reporter=list,json'];
  console.log(`\n=== ${suite.name} ===`);
  const started = Date.now();
  const res = spawnSync(suite.cmd, [...suite.args, ...reporterArgs], {
    cwd: path.join(root, suite.cwd),
    stdio: 'inherit',
    env: { ...process.env, ...suite.env, ...(suite.kind === 'playwright' ? { PLAYWRIGHT_JSON_OUTPUT_NAME: report } : {}) },
  });
  const counts = readCounts(report, suite.kind);
  if (res.status !== 0 && counts.failed === 0) counts.failed = 1; // a crash before any result is a failure too
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped;
  const flaky = counts.flaky?.length ? `; ${counts.flaky.length} passed only when run again` : '';
  summary.push(`${suite.name}: ${counts.passed} passed, ${counts.failed} failed${flaky} (${Math.round((Date.now() - started) / 1000)} s)`);
  for (const title of counts.flaky ?? []) summary.push(`  flaky: ${title}`);
}

console.log(`\n${summary.join('\n')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

function readCounts(file, kind) {
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (kind === 'vitest') {
      return {
        passed: r.numPassedTests ?? 0,
        failed: (r.numFailedTests ?? 0) + (r.numFailedTestSuites && !r.numFailedTests ? r.numFailedTestSuites : 0),
        skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
      };
    }
    const s = r.stats ?? {};
    return { passed: (s.expected ?? 0) + (s.flaky ?? 0), failed: s.unexpected ?? 0, skipped: s.skipped ?? 0, flaky: flakyTitles(r.suites ?? []) };
  } catch {
    return { passed: 0, failed: 0, skipped: 0 };
  }
}

/** The journeys that failed once and passed when run again (Playwright's JSON report, nested suites). */
function flakyTitles(suites, parents = []) {
  const titles = [];
  for (const suite of suites) {
    const path = suite.title && !suite.title.endsWith('.ts') ? [...parents, suite.title] : parents;
    for (const spec of suite.specs ?? []) {
      if ((spec.tests ?? []).some((t) => t.status === 'flaky')) titles.push(`${spec.file}: ${[...path, spec.title].join(' › ')}`);
    }
    titles.push(...flakyTitles(suite.suites ?? [], path));
  }
  return titles;
}
