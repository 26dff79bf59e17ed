#!/usr/bin/env node
// `npm run bench`: every benchmark in turn. Each measures its own baseline in the same run and
// prints ratios; arguments after `--` go to each of them (for example `-- --runs 1`).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const benches = ['web-bundle.mjs', 'pipeline.mjs', 'playable.mjs', 'load.mjs', 'tus-upload.mjs'];
let failed = false;
for (const bench of benches) {
  console.log(`\n=== ${bench} ===`);
  const res = spawnSync(process.execPath, [path.join(here, bench), ...process.argv.slice(2)], { stdio: 'inherit' });
  failed ||= res.status !== 0;
}
process.exit(failed ? 1 : 0);
