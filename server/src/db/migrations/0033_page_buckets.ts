import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../dialect.js';

/** The advisory lock that keeps changes of the buckets one at a time on PostgreSQL. */
const BUCKETS_LOCK = 330033;

/** The sorts of a video list, as the bucket rows name them (the sort column itself). */
export const BUCKET_SORTS = ['created_at', 'views', 'duration', 'title'] as const;

/**
 * The lists whose buckets the triggers keep: the home feed (listed videos), a channel as others see
 * it (the owner's listed videos) and a channel as its owner sees it (every video of the owner).
 * `member` says whether a row (OLD or NEW) is in the list. The order is the order in which
 * PostgreSQL's trigger takes bucket rows (see pgUpdate).
 */
const LISTS = [
  { key: (r: string) => `'all:' || ${r}.owner_id`, member: () => `1 = 1` },
  { key: (r: string) => `'listed:' || ${r}.owner_id`, member: (r: string) => `${r}.listed = 1` },
  { key: () => `'feed'`, member: (r: string) => `${r}.listed = 1` },
];

/** A row's boundary key in a sort: numeric sorts keep num (txt ''), the title sort keeps txt (num 0). */
const keyOf = (sort: string, r: string) => (sort === 'title' ? { num: '0', txt: `${r}.title` } : { num: `${r}.${sort}`, txt: `''` });

/** The row or rows that change a sort's buckets when they differ between OLD and NEW. */
const changed = (sort: string) => `(OLD.${sort} <> NEW.${sort} OR OLD.listed <> NEW.listed OR OLD.owner_id <> NEW.owner_id)`;

/** Adds d to the bucket holding row r's key in one list and sort: the bucket with the greatest boundary not above it. */
function sqliteAdd(list: (typeof LISTS)[number], sort: string, r: string, d: string, when: string): string {
  const k = keyOf(sort, r);
  const l = list.key(r);
  return `UPDATE page_buckets SET n = n + (${d})
    WHERE list = ${l} AND sort = '${sort}' AND ${list.member(r)} AND ${when}
      AND (num, txt, id_key) = (SELECT b.num, b.txt, b.id_key FROM page_buckets b
        WHERE b.list = ${l} AND b.sort = '${sort}' AND (b.num, b.txt, b.id_key) <= (${k.num}, ${k.txt}, ${r}.id)
        ORDER BY b.num DESC, b.txt DESC, b.id_key DESC LIMIT 1);`;
}

function pgAdd(list: (typeof LISTS)[number], sort: string, r: string, d: string, when: string): string {
  const k = keyOf(sort, r);
  return `IF ${list.member(r)} AND ${when} THEN
      PERFORM page_bucket_add(${list.key(r)}, '${sort}', (${k.num})::double precision, ${k.txt}, ${r}.id, ${d});
    END IF;`;
}

/**
 * An update's two changes to one list and sort, the lower bucket first: with the lists and sorts in
 * a fixed order, every transaction that changes one video takes bucket rows in one global order, so
 * two of them (two views of videos in each other's buckets) wait for each other instead of
 * deadlocking.
 */
function pgUpdate(list: (typeof LISTS)[number], sort: string): string {
  const o = keyOf(sort, 'OLD');
  const n = keyOf(sort, 'NEW');
  const dec = pgAdd(list, sort, 'OLD', '-1', changed(sort));
  const inc = pgAdd(list, sort, 'NEW', '1', changed(sort));
  return `IF ((${o.num})::double precision, ${o.txt}, OLD.id) <= ((${n.num})::double precision, ${n.txt}, NEW.id) THEN
      ${dec}
      ${inc}
    ELSE
      ${inc}
      ${dec}
    END IF;`;
}

export function migrationPageBuckets(dialect: Dialect): Migration {
  return {
    // Deep pages of the video lists seek to a kept boundary instead of skipping every row before it.
    // The counts between boundaries change with the rows in the same transaction, by triggers, so
    // every process sharing the database sees them exact; boundaries are added or removed only under
    // a lock (see list-paging.ts).
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('page_buckets')
        .addColumn('list', 'text', (c) => c.notNull())
        .addColumn('sort', 'text', (c) => c.notNull())
        .addColumn('num', 'double precision', (c) => c.notNull())
        .addColumn('txt', 'text', (c) => c.notNull())
        .addColumn('id_key', 'text', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('page_buckets_pk', ['list', 'sort', 'num', 'txt', 'id_key'])
        .execute();
      // A channel's page seeks to (col, id) and walks on in that order: its indexes end with the id
      // (the owner's own list), and the channel as others see it has one on its listed videos, as the
      // home feed has.
      for (const col of BUCKET_SORTS) {
        await db.schema.dropIndex(`videos_owner_${col}`).execute();
        await db.schema.createIndex(`videos_owner_${col}`).on('videos').columns(['owner_id', col, 'id']).execute();
        await db.schema.createIndex(`videos_owner_listed_${col}`).on('videos').columns(['owner_id', 'listed', col, 'id']).execute();
      }
      if (dialect === 'sqlite') {
        const each = (fn: (l: (typeof LISTS)[number], s: string) => string) => LISTS.flatMap((l) => BUCKET_SORTS.map((s) => fn(l, s))).join('\n');
        await sql
          .raw(
            `CREATE TRIGGER page_buckets_insert AFTER INSERT ON videos BEGIN
          ${each((l, s) => sqliteAdd(l, s, 'NEW', '1', '1 = 1'))}
        END`,
          )
          .execute(db);
        await sql
          .raw(
            `CREATE TRIGGER page_buckets_delete AFTER DELETE ON videos BEGIN
          ${each((l, s) => sqliteAdd(l, s, 'OLD', '-1', '1 = 1'))}
        END`,
          )
          .execute(db);
        await sql
          .raw(
            `CREATE TRIGGER page_buckets_update AFTER UPDATE OF listed, owner_id, ${BUCKET_SORTS.join(', ')} ON videos BEGIN
          ${each((l, s) => sqliteAdd(l, s, 'OLD', '-1', changed(s)))}
          ${each((l, s) => sqliteAdd(l, s, 'NEW', '1', changed(s)))}
        END`,
          )
          .execute(db);
        return;
      }
      await sql
        .raw(
          `CREATE FUNCTION page_bucket_add(l text, s text, k_num double precision, k_txt text, k_id text, d integer) RETURNS void
        LANGUAGE sql AS $$
          UPDATE page_buckets SET n = n + d
          WHERE list = l AND sort = s AND (num, txt, id_key) = (SELECT b.num, b.txt, b.id_key FROM page_buckets b
            WHERE b.list = l AND b.sort = s AND (b.num, b.txt, b.id_key) <= (k_num, k_txt, k_id)
            ORDER BY b.num DESC, b.txt DESC, b.id_key DESC LIMIT 1)
        $$`,
        )
        .execute(db);
      const each = (fn: (l: (typeof LISTS)[number], s: string) => string) => LISTS.flatMap((l) => BUCKET_SORTS.map((s) => fn(l, s))).join('\n');
      // The table lock comes first so that every statement after it sees the boundaries as they are
      // once any rebalancing (which holds a stronger lock) has committed.
      await sql
        .raw(
          `CREATE FUNCTION page_buckets_track() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          LOCK TABLE page_buckets IN ROW EXCLUSIVE MODE;
          -- The owner's row is locked before any bucket, as refreshVideoAccess locks it before the
          -- videos it changes: a transaction that inserts a video and then refreshes its owner takes
          -- the locks in the same order as one that only refreshes.
          PERFORM 1 FROM users WHERE id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.owner_id ELSE NEW.owner_id END) FOR NO KEY UPDATE;
          -- Then one lock for every change of the buckets until the transaction ends: a statement that
          -- changes many videos (a refresh of an owner's flags) takes bucket rows in its scan order,
          -- and two of them could otherwise each hold a row the other needs.
          PERFORM pg_advisory_xact_lock(${BUCKETS_LOCK});
          IF TG_OP = 'INSERT' THEN
            ${each((l, s) => pgAdd(l, s, 'NEW', '1', 'true'))}
          ELSIF TG_OP = 'DELETE' THEN
            ${each((l, s) => pgAdd(l, s, 'OLD', '-1', 'true'))}
          ELSE
            ${each((l, s) => pgUpdate(l, s))}
          END IF;
          RETURN NULL;
        END
        $$`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER page_buckets_track AFTER INSERT OR DELETE OR UPDATE OF listed, owner_id, ${BUCKET_SORTS.join(', ')}
        ON videos FOR EACH ROW EXECUTE FUNCTION page_buckets_track()`,
        )
        .execute(db);
    },
  };
}
