/** Bulk loading into the SQLite file the server uses: prepared inserts in large transactions. */
import SQLite from 'better-sqlite3';
import { recountStatements, tableCounts } from './catalogue-counters.mjs';

const BATCH = 20_000;

export function sqliteTarget(file) {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  // A throwaway file being filled: a crash means running the generator again.
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  return {
    async insert(table, columns, rows) {
      await this.insertMany(table, columns, rows.length, (i) => rows[i]);
    },
    async insertMany(table, columns, count, rowAt) {
      const stmt = db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
      const run = db.transaction((from, to) => {
        for (let i = from; i < to; i++) {
          const row = rowAt(i);
          const params = {};
          for (const c of columns) params[c] = row[c] ?? null;
          stmt.run(params);
        }
      });
      for (let from = 0; from < count; from += BATCH) run(from, Math.min(count, from + BATCH));
    },
    async recount() {
      for (const statement of recountStatements) db.exec(statement);
      const fts = db.prepare('SELECT count(*) AS n FROM videos_fts').get().n;
      const videos = db.prepare('SELECT count(*) AS n FROM videos').get().n;
      if (fts !== videos) throw new Error(`search index has ${fts} rows for ${videos} videos`);
      db.exec('ANALYZE');
      db.pragma('synchronous = NORMAL');
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    async summary() {
      const out = {};
      for (const [name, query] of Object.entries(tableCounts)) out[name] = db.prepare(query).get().n;
      return out;
    },
    async close() {
      db.close();
    },
  };
}
