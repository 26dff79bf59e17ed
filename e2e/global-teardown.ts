import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Removes the run's data directories (database and media) when playwright.config.ts made them.
 * The site may still be finishing a job (its scratch files come and go in `work/`) while this runs,
 * so removal is retried, and what a still-running job leaves is reported rather than failing a run
 * whose journeys all passed.
 */
export default function globalTeardown() {
  const made = [
    [process.env.E2E_DATA_DIR, 'reelhouse-e2e-data-'],
    [process.env.E2E_SIGNUPS_DATA_DIR, 'reelhouse-e2e-signups-'],
    [process.env.E2E_PASSKEYS_DATA_DIR, 'reelhouse-e2e-passkeys-'],
    [process.env.E2E_MAIL_DATA_DIR, 'reelhouse-e2e-mail-'],
    [process.env.E2E_SSO_DATA_DIR, 'reelhouse-e2e-sso-'],
    [process.env.E2E_LIVE_DATA_DIR, 'reelhouse-e2e-live-'],
  ] as const;
  for (const [dir, prefix] of made) {
    if (!dir || path.dirname(dir) !== os.tmpdir() || !path.basename(dir).startsWith(prefix)) continue;
    try {
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    } catch (err) {
      console.warn(`Could not remove ${dir} yet (${(err as NodeJS.ErrnoException).code}): the site was still writing to it.`);
    }
  }
}
