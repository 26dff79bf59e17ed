import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfigOrExit } from './config.js';
import { describeUrl, MoveError, moveToPostgres } from './db/move-to-postgres/move-to-postgres.js';
import { backupBeforeMigrating } from './db/pre-migrate-backup.js';
import { createLogger } from './logger.js';

const USAGE = 'Usage: npm run migrate-to-postgres -- --to postgres://... [--from path/to/reelhouse.db]';

/**
 * `npm run migrate-to-postgres`: copies the site's SQLite database into an empty PostgreSQL database
 * (docs/operations.md, "Moving from SQLite to PostgreSQL"). The site must be stopped meanwhile.
 */
async function main() {
  let args;
  try {
    args = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' } }, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new MoveError(`${(err as Error).message}. ${USAGE}`);
  }
  const config = loadConfigOrExit();
  const from = path.resolve(args.from ?? path.join(config.dataDir, 'reelhouse.db'));
  const to = args.to ?? (config.database.kind === 'postgres' ? config.database.url : undefined);
  if (!to) throw new MoveError(`Say which PostgreSQL database to move to. ${USAGE} (or set DATABASE_URL)`);
  if (!/^postgres(ql)?:\/\//.test(to)) throw new MoveError(`--to must be a postgres:// or postgresql:// address. ${USAGE}`);

  console.log(`Moving ${from} to PostgreSQL at ${describeUrl(to)}`);
  const started = Date.now();
  // The SQLite file is backed up before it is migrated, as a start on it would do: on unless
  // BACKUP_BEFORE_MIGRATE says otherwise (its default follows DATABASE_URL, which may name the target).
  const backups = { dir: config.backups.dir, beforeMigrate: process.env.BACKUP_BEFORE_MIGRATE ? config.backups.beforeMigrate : true };
  const logger = createLogger(config.logLevel, pino.destination({ dest: 2, sync: true }));
  const beforeMigratingSource = backupBeforeMigrating({ database: { kind: 'sqlite', file: from, readWorkers: 0 }, backups }, logger);
  const report = await moveToPostgres({ from, to, say: (line) => console.log(line), beforeMigratingSource });
  const rows = report.copied.reduce((sum, t) => sum + t.rows, 0);
  console.log(`Every table's row count is equal on both sides: ${report.copied.length} tables, ${rows} rows.`);
  if (report.rebuilt.length) {
    const kept = report.rebuilt.map((t) => `${t.table} (${t.rows} rows)`).join(', ');
    console.log(`Kept by PostgreSQL from the copied rows: ${kept}; a list's page boundaries are made again on its first deep page.`);
  }
  if (report.sequences.length) console.log(`Sequences moved past the copied ids: ${report.sequences.join(', ')}.`);
  console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s. Set DATABASE_URL to this database and start the site.`);
}

main().catch((err) => {
  console.error(err instanceof MoveError ? err.message : `The move failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
