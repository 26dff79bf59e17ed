import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * SQLite: every word of the videos' FTS5 index with how many videos hold it
 * (docs/decisions/0043-newest-first-search.md). A search spells a typed prefix out as these whole
 * words, which FTS5 reads lazily from the newest row and stops, where a prefix longer than the
 * index's prefix lengths makes it merge every list the prefix starts, whole, first; and the counts
 * bound how many videos can match, so a common word is estimated without being counted.
 *
 * The words are split by FTS5 itself: the triggers put a video's text into a contentless scratch
 * index with the same tokenizer, read that one document's terms through fts5vocab, and empty it,
 * so the table never disagrees with videos_fts about what a word is.
 */
export function migrationSqliteSearchWords(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      await sql`CREATE TABLE search_words (word text PRIMARY KEY, videos integer NOT NULL) WITHOUT ROWID`.execute(db);
      await sql`CREATE VIRTUAL TABLE search_words_scratch USING fts5(
        title, owner_text, description, content='', tokenize='unicode61 remove_diacritics 2')`.execute(db);
      await sql`CREATE VIRTUAL TABLE search_words_scratch_terms USING fts5vocab(search_words_scratch, 'row')`.execute(db);
      const add = (row: 'new' | 'old') => `
        INSERT INTO search_words_scratch(rowid, title, owner_text, description) VALUES (1, ${row}.title, ${row}.owner_text, ${row}.description);
        INSERT INTO search_words(word, videos) SELECT term, 1 FROM search_words_scratch_terms WHERE true
          ON CONFLICT(word) DO UPDATE SET videos = videos + 1;
        INSERT INTO search_words_scratch(search_words_scratch) VALUES ('delete-all');`;
      const remove = (row: 'new' | 'old') => `
        INSERT INTO search_words_scratch(rowid, title, owner_text, description) VALUES (1, ${row}.title, ${row}.owner_text, ${row}.description);
        UPDATE search_words SET videos = videos - 1 WHERE word IN (SELECT term FROM search_words_scratch_terms);
        INSERT INTO search_words_scratch(search_words_scratch) VALUES ('delete-all');`;
      await sql.raw(`CREATE TRIGGER videos_search_words_insert AFTER INSERT ON videos BEGIN ${add('new')} END`).execute(db);
      await sql.raw(`CREATE TRIGGER videos_search_words_delete AFTER DELETE ON videos BEGIN ${remove('old')} END`).execute(db);
      await sql
        .raw(
          `CREATE TRIGGER videos_search_words_update AFTER UPDATE OF title, owner_text, description ON videos BEGIN
          ${remove('old')} ${add('new')} END`,
        )
        .execute(db);
      // The videos already there: one read of the whole index, once.
      await sql`CREATE VIRTUAL TABLE temp.videos_fts_terms USING fts5vocab(main, videos_fts, 'row')`.execute(db);
      await sql`INSERT INTO search_words(word, videos) SELECT term, doc FROM temp.videos_fts_terms`.execute(db);
      await sql`DROP TABLE temp.videos_fts_terms`.execute(db);
    },
  };
}
