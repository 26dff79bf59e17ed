import { CompiledQuery } from 'kysely';
import type { Db } from '../../src/db/client.js';

/** The database, with every query it runs kept, to read their plans. */
export function recording(db: Db): { db: Db; queries: CompiledQuery[] } {
  const queries: CompiledQuery[] = [];
  const spy = new Proxy(db, {
    get(target, prop) {
      if (prop === 'getExecutor') {
        return () => {
          const executor = target.getExecutor();
          return new Proxy(executor, {
            get(e, p) {
              if (p === 'executeQuery')
                return (q: CompiledQuery, id: unknown) => {
                  queries.push(q);
                  return (e.executeQuery as (...a: unknown[]) => unknown)(q, id);
                };
              const v = Reflect.get(e, p, e);
              return typeof v === 'function' ? v.bind(e) : v;
            },
          });
        };
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { db: spy, queries };
}

/** SQLite's plan of a query, one step a line. */
export const sqlitePlan = async (db: Db, q: CompiledQuery) =>
  (await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]))).rows.map((r) => r.detail).join('\n');
