import { type Kysely, type Migration, sql } from 'kysely';

export function migrationCounters(): Migration {
  const bigint = 'bigint' as const;
  return {
    // Site-wide totals kept beside the rows they count, so the home feed's page count never
    // scans the videos table.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('counters')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', bigint, (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`INSERT INTO counters (key, value)
        SELECT 'public_videos', count(*) FROM videos WHERE is_published = 1 AND status = 'ready'`.execute(db);
    },
  };
}
