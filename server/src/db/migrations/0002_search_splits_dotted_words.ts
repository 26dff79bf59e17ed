import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../dialect.js';

export function migrationSearchSplitsDottedWords(dialect: Dialect): Migration {
  return {
    // PostgreSQL's parser keeps "john.doe", "node.js" or "a@b" as one lexeme, so "doe" or "js"
    // found nothing there while SQLite's tokenizer splits them. Turning those joiners into spaces
    // makes both databases find the same words.
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`ALTER TABLE videos DROP COLUMN search_vector`.execute(db);
      await sql`ALTER TABLE videos ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('simple', translate(coalesce(title, ''), './@:', '    ')), 'A') ||
        setweight(to_tsvector('simple', translate(coalesce(owner_text, ''), './@:', '    ')), 'B') ||
        setweight(to_tsvector('simple', translate(coalesce(description, ''), './@:', '    ')), 'C')) STORED`.execute(db);
      await sql`CREATE INDEX videos_search ON videos USING GIN (search_vector)`.execute(db);
    },
  };
}
