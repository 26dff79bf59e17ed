import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * PostgreSQL: every word the videos' search index has ever held, in byte order, so a search can
 * turn a typed prefix into the few whole words it stands for (docs/decisions/0038-search-words.md).
 * GIN answers a prefix by gathering every match of every word it starts into a bitmap before it can
 * intersect anything, which costs four to five times what whole words cost. Words are only ever
 * added: one no video holds any more simply matches nothing. SQLite reads FTS5's own vocabulary.
 */
export function migrationSearchWords(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`CREATE TABLE search_words (word text COLLATE "C" PRIMARY KEY)`.execute(db);
      // Words are added in one order by everyone, so two writers adding the same new words wait for
      // each other instead of deadlocking.
      await sql
        .raw(
          `CREATE FUNCTION search_words_of_new_videos() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO search_words (word)
            SELECT DISTINCT w FROM new_videos, unnest(tsvector_to_array(new_videos.search_vector)) AS w ORDER BY 1
            ON CONFLICT DO NOTHING;
          RETURN NULL;
        END
        $$`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE FUNCTION search_words_of_changed_video() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO search_words (word)
            SELECT DISTINCT w FROM unnest(tsvector_to_array(NEW.search_vector)) AS w ORDER BY 1
            ON CONFLICT DO NOTHING;
          RETURN NULL;
        END
        $$`,
        )
        .execute(db);
      // Inserts once per statement (a bulk load adds each word once); text changes once per video.
      await sql
        .raw(
          `CREATE TRIGGER videos_search_words_insert AFTER INSERT ON videos
        REFERENCING NEW TABLE AS new_videos FOR EACH STATEMENT EXECUTE FUNCTION search_words_of_new_videos()`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER videos_search_words_update AFTER UPDATE OF title, description, owner_text ON videos
        FOR EACH ROW WHEN (OLD.search_vector IS DISTINCT FROM NEW.search_vector)
        EXECUTE FUNCTION search_words_of_changed_video()`,
        )
        .execute(db);
      await sql`INSERT INTO search_words (word)
        SELECT DISTINCT w FROM videos, unnest(tsvector_to_array(videos.search_vector)) AS w ORDER BY 1
        ON CONFLICT DO NOTHING`.execute(db);
    },
  };
}
