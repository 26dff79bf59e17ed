import { type Kysely, type Migration } from 'kysely';

export function migrationDailyViews(): Migration {
  return {
    // Counted views per video per UTC day, written with each counted view: the studio's
    // views-per-day chart and the trending list read these instead of the view records, which
    // are kept only for an hour.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('video_daily_views')
        .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id').onDelete('cascade'))
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('video_daily_views_pk', ['video_id', 'day'])
        .execute();
      await db.schema.createIndex('video_daily_views_day').on('video_daily_views').columns(['day', 'video_id']).execute();
    },
  };
}
