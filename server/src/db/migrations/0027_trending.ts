import { type Kysely, type Migration } from 'kysely';

export function migrationTrending(): Migration {
  return {
    // Trending sums the likes of the last days: recent likes by time, without scanning them all.
    async up(db: Kysely<any>) {
      await db.schema.createIndex('likes_recent').on('likes').columns(['target_type', 'created_at', 'target_id']).execute();
    },
  };
}
