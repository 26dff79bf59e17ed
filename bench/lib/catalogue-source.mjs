/**
 * The catalogue a benchmark runs on: made by bench/catalogue.mjs, or with --reuse the one made
 * before (its summary kept in bench/results/catalogue-<db>-<scale>.json). SQLite catalogues live in
 * the temporary directory, PostgreSQL ones in a database named after the scale.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const resultsDir = path.join(benchDir, 'results');

export function catalogueFor({ db, scale, reuse }) {
  const scaleTag = String(scale).replace('.', '_');
  const dataDir = path.join(os.tmpdir(), `reelhouse-catalogue-${scaleTag}`);
  const pgUrl = `postgres://postgres@127.0.0.1:5432/reelhouse_catalogue_${scaleTag}`;
  fs.mkdirSync(resultsDir, { recursive: true });
  const summaryFile = path.join(resultsDir, `catalogue-${db}-${scaleTag}.json`);
  let summary = reuse && fs.existsSync(summaryFile) ? JSON.parse(fs.readFileSync(summaryFile, 'utf8')) : null;
  // Asked to reuse a catalogue whose summary is missing: making it again would throw away a database
  // that took half an hour to fill. Say what is missing instead.
  if (!summary && reuse) {
    console.error(
      `--reuse: ${summaryFile} is missing. Put the summary that bench/catalogue.mjs printed last there, or run without --reuse to make the catalogue again.`,
    );
    process.exit(2);
  }
  if (!summary) {
    const target = db === 'postgres' ? ['--db', 'postgres', '--url', pgUrl] : ['--db', 'sqlite', '--file', path.join(dataDir, 'reelhouse.db')];
    fs.mkdirSync(dataDir, { recursive: true });
    console.log(`making the catalogue (scale ${scale}) on ${db}...`);
    const out = execFileSync(process.execPath, [path.join(benchDir, 'catalogue.mjs'), ...target, '--scale', String(scale)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    summary = JSON.parse(out.trim().split('\n').at(-1));
    fs.writeFileSync(summaryFile, JSON.stringify(summary, null, 2));
  }
  console.log(`catalogue: ${summary.videos} videos (${summary.listedVideos} listed), ${summary.users} channels, made in ${summary.seconds} s`);
  /** The settings that point the server at this catalogue. */
  const env = { ...(db === 'postgres' ? { DATABASE_URL: pgUrl } : {}), DATA_DIR: dataDir };
  return { summary, env };
}
