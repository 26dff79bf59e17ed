import { type Kysely, type Migration, sql } from 'kysely';

export function migrationCommentReplies(): Migration {
  const bigint = 'bigint' as const;
  return {
    // One level of replies (a reply's parent is always a top-level comment; replies go with it),
    // the video owner's pin (at most one per video: a partial unique index, which both databases
    // have) and hearts.
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('comments')
        .addColumn('parent_id', 'text', (c) => c.references('comments.id').onDelete('cascade'))
        .execute();
      await db.schema.alterTable('comments').addColumn('pinned_at', bigint).execute();
      await db.schema.alterTable('comments').addColumn('hearted_at', bigint).execute();
      await db.schema.createIndex('comments_replies').on('comments').columns(['parent_id', 'created_at']).execute();
      await sql`CREATE UNIQUE INDEX comments_one_pinned ON comments (video_id) WHERE pinned_at IS NOT NULL`.execute(db);
    },
  };
}
