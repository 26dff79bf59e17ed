/**
 * How a benchmark hands its figures to `npm run bench`: one object per figure (name, value, unit,
 * and where it has them: baseline, ratio, target, pass), written to the file the harness names in
 * BENCH_RESULTS_FILE. Run alone, a benchmark only prints.
 */
import fs from 'node:fs';

export function writeFigures(benchmark, figures, details = {}) {
  const file = process.env.BENCH_RESULTS_FILE;
  if (!file) return;
  fs.writeFileSync(file, JSON.stringify({ benchmark, ...details, figures }, null, 2));
}
