import { type Kysely, type Migration } from 'kysely';

export function migrationFairJobOrder(): Migration {
  return {
    // Jobs of one name are taken in fair order between uploaders: each job gets a rank one past
    // its uploader's last waiting job, and never below the lowest rank still waiting.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('jobs').addColumn('fair_key', 'text').execute();
      await db.schema
        .alterTable('jobs')
        .addColumn('fair_rank', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('jobs_fair').on('jobs').columns(['name', 'status', 'fair_key', 'fair_rank']).execute();
    },
  };
}
