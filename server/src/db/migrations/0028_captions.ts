import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../dialect.js';

export function migrationCaptions(dialect: Dialect): Migration {
  const bigint = 'bigint' as const;
  return {
    // One caption per language of a video; its cues are rows of their own, indexed for search the
    // way videos are (FTS5 on SQLite, a tsvector with a GIN index on PostgreSQL), so a search finds
    // the cue that said a word and where it starts. Both go with the video by foreign key.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('captions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id').onDelete('cascade'))
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('storage_key', 'text', (c) => c.notNull())
        .addColumn('cue_count', 'integer', (c) => c.notNull())
        .addColumn('created_at', bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('captions_one_per_language').on('captions').columns(['video_id', 'language']).unique().execute();

      await db.schema
        .createTable('caption_cues')
        // SQLite's FTS5 table points at cues by an integer rowid, which this column is.
        .addColumn('id', dialect === 'sqlite' ? 'integer' : 'bigserial', (c) => c.primaryKey())
        .addColumn('caption_id', 'text', (c) => c.notNull().references('captions.id').onDelete('cascade'))
        .addColumn('video_id', 'text', (c) => c.notNull().references('videos.id').onDelete('cascade'))
        .addColumn('start_ms', bigint, (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('caption_cues_caption').on('caption_cues').columns(['caption_id', 'start_ms']).execute();
      await db.schema.createIndex('caption_cues_video').on('caption_cues').column('video_id').execute();

      if (dialect === 'sqlite') {
        await sql`CREATE VIRTUAL TABLE caption_cues_fts USING fts5(
          text, content='caption_cues', content_rowid='id',
          tokenize='unicode61 remove_diacritics 2', prefix='2 3 4')`.execute(db);
        await sql`CREATE TRIGGER caption_cues_fts_insert AFTER INSERT ON caption_cues BEGIN
          INSERT INTO caption_cues_fts(rowid, text) VALUES (new.id, new.text); END`.execute(db);
        await sql`CREATE TRIGGER caption_cues_fts_delete AFTER DELETE ON caption_cues BEGIN
          INSERT INTO caption_cues_fts(caption_cues_fts, rowid, text) VALUES ('delete', old.id, old.text); END`.execute(db);
      } else {
        // The same joiners as the videos' search vector become spaces, so both databases find the same words.
        await sql`ALTER TABLE caption_cues ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
          to_tsvector('simple', translate(coalesce(text, ''), './@:', '    '))) STORED`.execute(db);
        await sql`CREATE INDEX caption_cues_search ON caption_cues USING GIN (search_vector)`.execute(db);
      }
    },
  };
}
