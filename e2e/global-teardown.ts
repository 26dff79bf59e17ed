import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Removes the run's data directory (database and media) when playwright.config.ts made it. */
export default function globalTeardown() {
  const dir = process.env.E2E_DATA_DIR;
  if (dir && path.dirname(dir) === os.tmpdir() && path.basename(dir).startsWith('reelhouse-e2e-data-')) {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
