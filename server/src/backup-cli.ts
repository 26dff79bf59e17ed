import { BackupRunsRepository } from './backup/backup-runs.repository.js';
import { formatBytes, formatSeconds, progressLine } from './backup/progress-line.js';
import { takeBackup } from './backup/take-backup.js';
import { loadConfigOrExit } from './config.js';
import { openDatabase } from './db/client.js';
import { createStorage } from './storage/create-storage.js';
import { S3Storage } from './storage/s3-storage.js';

const USAGE = 'usage: npm run backup -- [--to DIR]';

/** `npm run backup -- [--to DIR]`: a backup of the running (or stopped) site, taken by hand. */
async function main() {
  const to = parseArgs(process.argv.slice(2));
  const config = loadConfigOrExit();
  // Its own connection, on this thread: the backup reads little through it.
  const database = await openDatabase(
    { database: config.database.kind === 'sqlite' ? { ...config.database, readWorkers: 0 } : config.database },
    { migrate: false },
  );
  const storage = createStorage(config.storage);
  const line = progressLine();
  try {
    const result = await takeBackup(
      {
        database,
        storage,
        config,
        runs: new BackupRunsRepository(database.db),
        onProgress: (p) => line.update(p.phase, p.phase === 'database' ? 'copying' : `${p.files} files, ${formatBytes(p.bytes)}`),
      },
      { to: to ?? config.backups.dir, trigger: 'manual' },
    );
    line.done();
    // A manual backup takes no slot, so there is always a result.
    if (result) console.log(`Backup written to ${result.path}: ${formatBytes(result.bytes)} in ${formatSeconds(result.tookMs)}`);
  } catch (err) {
    line.done();
    throw err;
  } finally {
    if (storage instanceof S3Storage) storage.destroy();
    await database.close();
  }
}

function parseArgs(args: string[]): string | null {
  let to: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--to' && args[i + 1]) to = args[++i]!;
    else if (a.startsWith('--to=') && a.length > 5) to = a.slice(5);
    else throw new UsageError(`unknown argument ${a}; ${USAGE}`);
  }
  return to;
}

class UsageError extends Error {}

main().catch((err) => {
  const message = err instanceof Error ? err.message : String(err);
  // A database the site has not brought up to date yet has no record of backups.
  console.error(
    /no such table: backup_runs|relation "backup_runs" does not exist/.test(message)
      ? 'Backup failed: the database has no backup_runs table yet; start the site once (npm start) to bring its schema up to date'
      : err instanceof UsageError
        ? message
        : `Backup failed: ${message}`,
  );
  process.exit(1);
});
