import type { Kysely, Migration } from 'kysely';

/**
 * One row per backup taken: the command, a scheduled turn, or the copy made before a migration.
 * `slot` is a scheduled backup's turn, unique so that of several processes woken for the same turn
 * only the one whose insert lands takes it. `owner` is the taking process's owner tag
 * (lib/process-owner.ts), so a run whose process died can be told from one still going.
 */
export function migrationBackupRuns(): Migration {
  const bigint = 'bigint' as const;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('backup_runs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('trigger', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('slot', bigint, (c) => c.unique())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('started_at', bigint, (c) => c.notNull())
        .addColumn('finished_at', bigint)
        .addColumn('bytes', bigint)
        .addColumn('error', 'text')
        .addColumn('removed_at', bigint)
        .execute();
      await db.schema.createIndex('backup_runs_started').on('backup_runs').column('started_at').execute();
    },
  };
}
