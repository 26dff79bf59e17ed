import { type QueryCreator, sql } from 'kysely';
import type { Db } from './client.js';
import type { PagedList } from './paged-list.js';
import type { Database } from './schema.js';

/**
 * The page in one statement: the buckets' running counts, the boundary the page starts from and
 * the seek from it. One statement reads one snapshot on either database, so the counts and the
 * rows agree without a transaction, and on SQLite it runs on a read worker instead of the main
 * connection. Null when it finds no row.
 */
export async function readPageAtOnce(db: Db, list: PagedList, offset: number, limit: number): Promise<{ ids: string[]; biggest: number } | null> {
  const col = sql.ref(`videos.${list.sort}`);
  const boundary = sql.ref(list.sort === 'title' ? 'f.txt' : 'f.num');
  // A descending page is the reverse of an ascending range that starts total - offset - limit
  // rows in (clipped at 0 for the last page).
  // Typed, so PostgreSQL does arithmetic on them rather than on text.
  const off = sql<number>`cast(${offset} as bigint)`;
  const lim = sql<number>`cast(${limit} as bigint)`;
  const start = list.desc ? sql<number>`case when total - ${off} - ${lim} < 0 then 0 else total - ${off} - ${lim} end` : off;
  const count = list.desc ? sql<number>`case when total - ${off} < ${lim} then total - ${off} else ${lim} end` : lim;
  const withBuckets = db
    .with('b', (db) =>
      db
        .selectFrom('page_buckets')
        .select(['num', 'txt', 'id_key', 'n', sql<number>`sum(n) over (order by num, txt, id_key rows unbounded preceding) - n`.as('skip')])
        .where('list', '=', list.key)
        .where('sort', '=', list.sort),
    )
    .with('r', (db) =>
      db
        .selectFrom((eb) =>
          eb
            .selectFrom('b')
            .select(sql<number>`sum(n)`.as('total'))
            .as('t'),
        )
        .select([start.as('start'), count.as('cnt'), sql<number>`(select max(n) from b)`.as('biggest')]),
    )
    .with('f', (db) =>
      db
        .selectFrom(['b', 'r'])
        .select([
          'b.num',
          'b.txt',
          'b.id_key',
          sql<number>`r.start - b.skip`.as('rest'),
          sql<number>`case when r.cnt < 0 then 0 else r.cnt end`.as('cnt'),
          'r.biggest',
        ])
        .whereRef('b.skip', '<=', 'r.start')
        .orderBy('b.num', 'desc')
        .orderBy('b.txt', 'desc')
        .orderBy('b.id_key', 'desc')
        .limit(1),
    );
  // The list's filter on the statement that carries the buckets (its extra names are only its CTEs).
  const rows = await list
    .rows(withBuckets as unknown as QueryCreator<Database>)
    .select(['videos.id', sql<number>`(select biggest from f)`.as('biggest')])
    .where(sql<boolean>`(${col}, videos.id) >= (select ${boundary}, f.id_key from f)`)
    .orderBy(col, 'asc')
    .orderBy('videos.id', 'asc')
    .limit(sql<number>`coalesce((select cnt from f), 0)`)
    .offset(sql<number>`coalesce((select rest from f), 0)`)
    .execute();
  if (!rows.length) return null;
  const ids = rows.map((r) => r.id);
  return { ids: list.desc ? ids.reverse() : ids, biggest: Number(rows[0]!.biggest) };
}
