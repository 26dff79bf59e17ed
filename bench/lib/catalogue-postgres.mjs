/** Bulk loading into PostgreSQL: batches of rows sent as one array per column through unnest(). */
import pg from 'pg';
import { recountStatements, tableCounts } from './catalogue-counters.mjs';

const BATCH = 5_000;

/** Drops and creates the database named in the URL (a benchmark's own, never the site's). */
export async function recreatePostgresDatabase(url) {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected database name ${name}`);
  u.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: u.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
}

export async function postgresTarget(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('SET synchronous_commit = off');
  return {
    async insert(table, columns, rows) {
      await this.insertMany(table, columns, rows.length, (i) => rows[i]);
    },
    async insertMany(table, columns, count, rowAt) {
      for (let from = 0; from < count; from += BATCH) {
        const to = Math.min(count, from + BATCH);
        const arrays = columns.map(() => []);
        for (let i = from; i < to; i++) {
          const row = rowAt(i);
          columns.forEach((c, j) => arrays[j].push(row[c] ?? null));
        }
        const types = arrays.map((values) => (typeof values.find((v) => v !== null) === 'number' ? 'bigint[]' : 'text[]'));
        await client.query(`INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${types.map((t, j) => `$${j + 1}::${t}`).join(', ')})`, arrays);
      }
    },
    async recount() {
      for (const statement of recountStatements) await client.query(statement);
      await client.query('VACUUM ANALYZE');
    },
    async summary() {
      const out = {};
      for (const [name, query] of Object.entries(tableCounts)) out[name] = Number((await client.query(query)).rows[0].n);
      return out;
    },
    async close() {
      await client.end();
    },
  };
}
