import { progressLine } from './backup/progress-line.js';
import { restoreBackup } from './backup/restore.js';
import { loadConfigOrExit } from './config.js';
import { createStorage } from './storage/create-storage.js';
import { S3Storage } from './storage/s3-storage.js';

const USAGE = 'usage: npm run restore -- FROM [--force]';

/**
 * `npm run restore -- FROM [--force]`: puts a backup folder back into the configured database and
 * media, with the site's processes stopped.
 */
async function main() {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const rest = args.filter((a) => a !== '--force');
  if (rest.length !== 1 || rest[0]!.startsWith('--')) throw new UsageError(USAGE);
  const config = loadConfigOrExit();
  // Local media are written directly: opening local storage would make its directories before the checks.
  const bucket = config.storage.kind === 's3' ? createStorage(config.storage) : null;
  const line = progressLine();
  const phases = { checking: 'checking the backup', database: 'restoring the database', media: 'restoring media' } as const;
  try {
    const { manifest, files } = await restoreBackup(
      rest[0]!,
      { config, bucket },
      { force, onProgress: (p) => line.update(phases[p.phase], p.phase === 'database' ? '' : `${p.files} of ${p.total} files`) },
    );
    line.done();
    const target = config.database.kind === 'sqlite' ? config.database.file : 'the PostgreSQL database';
    const media = manifest.media.kind === 'local' ? `${files} media files` : `${manifest.media.files} media keys checked in the bucket`;
    console.log(`Restored the backup of ${manifest.startedAt} (schema ${manifest.schema ?? 'none'}) into ${target}, with ${media}`);
  } catch (err) {
    line.done();
    throw err;
  } finally {
    if (bucket instanceof S3Storage) bucket.destroy();
  }
}

class UsageError extends Error {}

main().catch((err) => {
  console.error(err instanceof UsageError ? err.message : `Restore failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
