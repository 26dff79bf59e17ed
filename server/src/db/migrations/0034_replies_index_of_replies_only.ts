import { type Kysely, type Migration, sql } from 'kysely';

export function migrationRepliesIndexOfRepliesOnly(): Migration {
  return {
    // The replies index held every comment, top-level ones under a null parent. Where most comments
    // are top-level, SQLite's statistics then say a parent id matches most of the table, and the
    // planner scans all comments for each comment's reply count (seconds per page at a million
    // comments). Indexing replies alone keeps the statistics true; a lookup by parent id implies
    // the parent is not null, so both databases still use it.
    async up(db: Kysely<any>) {
      await sql`CREATE INDEX comments_replies_only ON comments (parent_id, created_at, id) WHERE parent_id IS NOT NULL`.execute(db);
      await db.schema.dropIndex('comments_replies').execute();
    },
  };
}
