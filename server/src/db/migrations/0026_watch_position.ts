import { type Kysely, type Migration } from 'kysely';

export function migrationWatchPosition(): Migration {
  return {
    // Where each user stopped in each video of their history (seconds), so the player can offer to
    // resume; null for entries recorded before positions were kept, or without one.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('watch_history').addColumn('position', 'real').execute();
    },
  };
}
