import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/**
 * PostgreSQL plans every unnamed statement again: for a page of the home feed, planning took about
 * three times as long as running it (1.4 ms and 0.5 ms), and the site sends the same few hundred
 * statements over and over. This pool prepares each statement once per connection, under a name
 * made from its text, so PostgreSQL parses it once and may keep its plan.
 *
 * Left unprepared:
 * - full-text searches: the best plan depends on how common the words are (walk the newest videos
 *   for a common word, read the GIN index for a rare one), which a plan kept for all words would
 *   lose;
 * - anything once a connection holds `MAX_PREPARED` statements (lists of ids of every length make
 *   new texts).
 * A prepared statement whose table changed shape since (another process ran a migration) fails
 * once with "cached plan must not change result type"; it is then sent again unprepared (inside a
 * transaction the transaction has failed by then, and fails as any statement error would).
 */
const MAX_PREPARED = 2000;
const SEARCH = /@@|to_tsquery|tsvector/i;
const PLAN_CHANGED = '0A000';

export function preparingPool(pool: pg.Pool): PostgresPool {
  return {
    connect: async () => preparingClient(await pool.connect()),
    end: () => pool.end(),
  };
}

/** Each connection's statements by text, prepared or sent plain from now on, as long as the connection lives. */
const statementsOn = new WeakMap<pg.PoolClient, Map<string, 'prepared' | 'plain'>>();

function preparingClient(client: pg.PoolClient): PostgresPoolClient {
  let known = statementsOn.get(client);
  if (!known) statementsOn.set(client, (known = new Map()));
  const statements = known;
  return {
    query: ((sqlOrCursor: unknown, parameters?: readonly unknown[]) => {
      if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as pg.Submittable);
      const text = sqlOrCursor;
      const values = parameters as unknown[];
      const seen = statements.get(text);
      if (seen === 'plain' || SEARCH.test(text) || (!seen && statements.size >= MAX_PREPARED)) return client.query(text, values);
      statements.set(text, 'prepared');
      const name = `r${createHash('sha1').update(text).digest('hex').slice(0, 30)}`;
      return client.query({ name, text, values }).catch((err: { code?: string }) => {
        if (err.code !== PLAN_CHANGED) throw err;
        statements.set(text, 'plain');
        return client.query(text, values);
      });
    }) as unknown as PostgresPoolClient['query'],
    release: () => client.release(),
  };
}
