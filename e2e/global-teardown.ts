import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Removes the run's data directories (database and media) when playwright.config.ts made them. */
export default function globalTeardown() {
  const made = [[process.env.E2E_DATA_DIR, 'reelhouse-e2e-data-'], [process.env.E2E_SIGNUPS_DATA_DIR, 'reelhouse-e2e-signups-']] as const;
  for (const [dir, prefix] of made) {
    if (dir && path.dirname(dir) === os.tmpdir() && path.basename(dir).startsWith(prefix)) fs.rmSync(dir, { recursive: true, force: true });
  }
}
