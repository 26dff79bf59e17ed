import { type Kysely, type Migration, sql } from 'kysely';

export function migrationCommentOwnerBanned(): Migration {
  return {
    // Whether a comment's author is banned, kept on the comment (bans are rare, reads are not): a
    // page of a video's comments then reads one partial index in order, however deep the page,
    // instead of looking up every skipped comment's author. The condition's own columns are in
    // the index too, so SQLite reads it without touching the table (a covering index).
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('comments')
        .addColumn('owner_banned', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`UPDATE comments SET owner_banned = 1 WHERE owner_id IN (SELECT id FROM users WHERE banned_at IS NOT NULL)`.execute(db);
      await sql`CREATE INDEX comments_top_level_page ON comments (video_id, created_at, id, parent_id, owner_banned) WHERE parent_id IS NULL AND owner_banned = 0`.execute(
        db,
      );
    },
  };
}
