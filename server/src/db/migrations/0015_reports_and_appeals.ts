import { type Kysely, type Migration, sql } from 'kysely';

export function migrationReportsAndAppeals(): Migration {
  const bigint = 'bigint' as const;
  return {
    // Reports of videos, comments and channels, one open report per person and target (a partial
    // unique index, which both databases have); the owner's one appeal of a takedown is kept on
    // the video.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('reports')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('reporter_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('open'))
        .addColumn('resolution', 'text')
        .addColumn('resolved_by', 'text')
        .addColumn('resolved_at', bigint)
        .addColumn('created_at', bigint, (c) => c.notNull())
        .execute();
      await sql`CREATE UNIQUE INDEX reports_one_open ON reports (reporter_id, target_type, target_id) WHERE state = 'open'`.execute(db);
      await db.schema.createIndex('reports_queue').on('reports').columns(['state', 'target_type', 'target_id', 'created_at']).execute();
      await db.schema.alterTable('videos').addColumn('appeal_text', 'text').execute();
      await db.schema.alterTable('videos').addColumn('appealed_at', bigint).execute();
    },
  };
}
