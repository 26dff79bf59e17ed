import type { Kysely, Migration } from 'kysely';

export function migrationRelatedRankings(): Migration {
  return {
    // Up next's ranking of a video, kept for every process to reuse: the no-loop rule needs the
    // rankings of several other videos on each request, and every caller must see the same ranking
    // of a video, which a per-process memory could not promise. A ranking goes with its video.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('related_rankings')
        .addColumn('video_id', 'text', (c) => c.primaryKey().references('videos.id').onDelete('cascade'))
        .addColumn('ranked', 'text', (c) => c.notNull())
        .addColumn('made_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
