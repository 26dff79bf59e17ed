import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db, Dialect } from './client.js';
import type { Database } from './schema.js';
import { KeptPageCounts, locate, versionOf } from './kept-page-counts.js';
import { type BucketKey, HEAD, isHead, type PagedList } from './paged-list.js';
import { readPageAtOnce } from './list-page-at-once.js';

/**
 * Deep pages of the video lists without skipping every row before them.
 *
 * A list (the home feed, a channel as others see it, a channel as its owner sees it) keeps, per sort
 * column, boundaries in its ascending order (col, id) and the exact number of rows from each
 * boundary to the next (table page_buckets, kept by triggers on videos in the same transaction as
 * the change, see migration 0033). A page at offset k (either direction: a descending page is the
 * reverse of an ascending range) seeks to the last boundary at or before its first row, with a
 * (col, id) >= (boundary) range on the list's covering index, and skips fewer rows than a bucket
 * holds. The counts and the page are read in one snapshot, so the rows are exactly those of
 * ORDER BY col, id LIMIT/OFFSET.
 *
 * Boundaries are added only under a lock that keeps the triggers out (EXCLUSIVE on PostgreSQL, the
 * write lock on SQLite): a list's first deep page builds them in one walk of the list, and a bucket
 * that grew past twice the spacing is split. A boundary never has to be a row of the list, so
 * deletes and sort-key changes only change counts.
 */

interface Bucket extends BucketKey {
  n: number;
}

type IdsQuery = SelectQueryBuilder<Database, 'videos', { id: string }>;
/**
 * The statement that turns a page's ids (a subquery) into its rows. Any table may be joined and any
 * column selected, so its type is left open; pageRows adds the list's version and the order.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RowsQuery<R> = SelectQueryBuilder<any, any, R>;

/** Rows from each boundary to the next; 1,000 by default: a deep page skips at most about twice that. */
export const DEFAULT_PAGE_SPACING = 1000;

export class ListPager {
  readonly #counts: KeptPageCounts;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    /** Rows per bucket when built or split; a bucket is split once it holds more than twice this. */
    readonly spacing: number = DEFAULT_PAGE_SPACING,
  ) {
    this.#counts = new KeptPageCounts(db);
  }

  /** Whether a page at this offset is worth a seek: shallower ones skip fewer rows than a bucket holds. */
  isDeep(offset: number): boolean {
    return offset >= this.spacing;
  }

  /**
   * The rows of one page, in the list's order (col, id) in the direction asked. `rowsOf` turns the
   * page's ids into the rows (joins, columns): on the usual path the ids, the rows and anything else
   * it selects are read in one statement.
   */
  async pageRows<R extends { id: string }>(list: PagedList, offset: number, limit: number, rowsOf: (ids: IdsQuery) => RowsQuery<R>): Promise<R[]> {
    const seen = await this.readPageFromKeptCounts(list, offset, limit, rowsOf);
    if (seen) return seen;
    const ids = await this.pageIds(list, offset, limit);
    if (!ids.length) return [];
    const rows = await rowsOf(this.db.selectFrom('videos').select('videos.id').where('videos.id', 'in', ids)).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** The ids of one page without the kept counts: from the buckets summed in SQL, or in a transaction that builds them. */
  private async pageIds(list: PagedList, offset: number, limit: number): Promise<string[]> {
    const atOnce = await readPageAtOnce(this.db, list, offset, limit);
    if (atOnce) {
      if (atOnce.biggest > 2 * this.spacing) await this.splitOversized(list);
      return atOnce.ids;
    }
    // No rows: the list has no buckets yet, or the page is past its end. The transaction below
    // tells which (and builds them).
    let read = await this.readPage(list, offset, limit);
    if (!read) {
      await this.build(list);
      read = await this.readPage(list, offset, limit);
      if (!read) throw new Error(`page buckets of ${list.key}/${list.sort} are missing after their build`);
    }
    // Splitting after the read keeps it out of the snapshot; the next deep page gets the finer buckets.
    if (read.oversized) await this.split(list, read.oversized);
    return read.ids;
  }

  /**
   * The page from the counts kept in memory (kept-page-counts.ts): one seek, whose statement also
   * reads the list's version. Null when the list has no kept counts, the version moved on twice
   * running, or the seek found no row (past the end, or nothing to check the version against).
   */
  private async readPageFromKeptCounts<R extends { id: string }>(
    list: PagedList,
    offset: number,
    limit: number,
    rowsOf: (ids: IdsQuery) => RowsQuery<R>,
  ): Promise<R[] | null> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const counts = await this.#counts.of(list);
      if (!counts) return null;
      // The page as a range of the ascending order.
      const start = list.desc ? Math.max(0, counts.total - offset - limit) : offset;
      const count = list.desc ? Math.min(limit, counts.total - offset) : limit;
      if (count <= 0) return null;
      const { from, rest } = locate(counts, start);
      const col = sql.ref(`videos.${list.sort}`);
      let ids = list.rows(this.db).select('videos.id');
      if (!isHead(from)) ids = ids.where(sql<boolean>`(${col}, videos.id) >= (${list.sort === 'title' ? from.txt : from.num}, ${from.id_key})`);
      const rows = (await rowsOf(ids.orderBy(col, 'asc').orderBy('videos.id', 'asc').limit(count).offset(rest))
        .select(versionOf(list).as('v'))
        .orderBy(col, 'asc')
        .orderBy('videos.id', 'asc')
        .execute()) as (R & { v: number | null })[];
      if (!rows.length) return null;
      if (Number(rows[0]!.v) === counts.version) {
        const oversized = counts.sizes.some((n) => n > 2 * this.spacing);
        if (oversized) await this.splitOversized(list);
        return list.desc ? rows.reverse() : rows;
      }
      this.#counts.forget(list);
    }
    return null;
  }

  /** Splits the list's buckets that grew past twice the spacing (found by a page read at once). */
  private async splitOversized(list: PagedList): Promise<void> {
    const oversized = (await this.buckets(this.db, list)).filter((b) => b.n > 2 * this.spacing);
    for (const bucket of oversized) await this.split(list, bucket);
    this.#counts.forget(list);
  }

  private async readPage(list: PagedList, offset: number, limit: number) {
    const run = async (trx: Db) => {
      const buckets = await this.buckets(trx, list);
      if (!buckets.length) return null;
      const total = buckets.reduce((s, b) => s + b.n, 0);
      const oversized = buckets.find((b) => b.n > 2 * this.spacing);
      if (offset >= total) return { ids: [] as string[], oversized };
      // The page as a range of the ascending order.
      const start = list.desc ? Math.max(0, total - offset - limit) : offset;
      const count = list.desc ? Math.min(limit, total - offset) : limit;
      let before = 0;
      let from = buckets[0];
      for (const b of buckets) {
        if (before + b.n > start) {
          from = b;
          break;
        }
        before += b.n;
        from = b;
      }
      const col = sql.ref(`videos.${list.sort}`);
      let q = list.rows(trx).select('videos.id');
      if (!isHead(from)) q = q.where(sql<boolean>`(${col}, videos.id) >= (${list.sort === 'title' ? from.txt : from.num}, ${from.id_key})`);
      const rows = await q
        .orderBy(col, 'asc')
        .orderBy('videos.id', 'asc')
        .limit(count)
        .offset(start - before)
        .execute();
      const ids = rows.map((r) => r.id);
      return { ids: list.desc ? ids.reverse() : ids, oversized };
    };
    // One snapshot for the counts and the page: PostgreSQL's repeatable read, SQLite's transaction.
    return this.dialect === 'postgres' ? this.db.transaction().setIsolationLevel('repeatable read').execute(run) : this.db.transaction().execute(run);
  }

  private async buckets(db: Db, list: PagedList): Promise<Bucket[]> {
    const rows = await db
      .selectFrom('page_buckets')
      .select(['num', 'txt', 'id_key', 'n'])
      .where('list', '=', list.key)
      .where('sort', '=', list.sort)
      .orderBy('num')
      .orderBy('txt')
      .orderBy('id_key')
      .execute();
    return rows.map((r) => ({ num: Number(r.num), txt: r.txt, id_key: r.id_key, n: Number(r.n) }));
  }

  /** Takes the lock that keeps the triggers (and other builders) out until the transaction ends. */
  private async lock(trx: Db, list: PagedList): Promise<void> {
    if (this.dialect === 'postgres') await sql`LOCK TABLE page_buckets IN EXCLUSIVE MODE`.execute(trx);
    // On SQLite a write takes the database's one write lock; this one changes nothing.
    else await trx.deleteFrom('page_buckets').where('list', '=', list.key).where('sort', '=', list.sort).where('n', '<', 0).execute();
  }

  /** A list's first boundaries: every spacing-th row's key, from one walk of the list in order. */
  private async build(list: PagedList): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.lock(trx, list);
      if ((await this.buckets(trx, list)).length) return; // built by another request meanwhile
      const col = sql.ref(`videos.${list.sort}`);
      const numbered = list
        .rows(trx)
        .select([sql<number | string>`${col}`.as('k'), 'videos.id', sql<number>`row_number() over (order by ${col}, videos.id)`.as('rn')])
        .as('numbered');
      // Kysely cannot name the columns of a derived table built from a list's own query; the select below names them.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const rows = (await (trx.selectFrom(numbered) as unknown as SelectQueryBuilder<any, any, object>)
        .select(['k', 'id', 'rn'])
        .where(sql<boolean>`(rn - 1) % ${this.spacing} = 0`)
        .orderBy('rn')
        .execute()) as { k: number | string; id: string; rn: number }[];
      const total = await list
        .rows(trx)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const n = Number(total.n);
      const values = [{ ...HEAD, n: Math.min(this.spacing, n) }];
      for (const r of rows.slice(1)) {
        const at = Number(r.rn) - 1;
        values.push({ ...this.keyOf(list, r.k, r.id), n: Math.min(this.spacing, n - at) });
      }
      for (let i = 0; i < values.length; i += 500) {
        await trx
          .insertInto('page_buckets')
          .values(values.slice(i, i + 500).map((v) => ({ list: list.key, sort: list.sort, ...v })))
          .execute();
      }
      await this.raiseVersion(trx, list);
    });
  }

  /** A new version for a list whose boundaries changed: counts kept in memory from before no longer hold. */
  private async raiseVersion(trx: Db, list: PagedList): Promise<void> {
    await trx
      .insertInto('page_bucket_versions')
      .values({ list: list.key, sort: list.sort, version: 1 })
      .onConflict((oc) => oc.columns(['list', 'sort']).doUpdateSet({ version: sql<number>`page_bucket_versions.version + 1` }))
      .execute();
  }

  /** Splits a bucket that holds more than twice the spacing into buckets of the spacing (the last one keeps the rest). */
  private async split(list: PagedList, seen: Bucket): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.lock(trx, list);
      const current = await trx
        .selectFrom('page_buckets')
        .select('n')
        .where('list', '=', list.key)
        .where('sort', '=', list.sort)
        .where('num', '=', seen.num)
        .where('txt', '=', seen.txt)
        .where('id_key', '=', seen.id_key)
        .executeTakeFirst();
      if (!current) return;
      let bucket: Bucket = { ...seen, n: Number(current.n) };
      const col = sql.ref(`videos.${list.sort}`);
      while (bucket.n > 2 * this.spacing) {
        let q = list.rows(trx).select([sql<number | string>`${col}`.as('k'), 'videos.id']);
        if (!isHead(bucket)) q = q.where(sql<boolean>`(${col}, videos.id) >= (${list.sort === 'title' ? bucket.txt : bucket.num}, ${bucket.id_key})`);
        const at = await q.orderBy(col, 'asc').orderBy('videos.id', 'asc').limit(1).offset(this.spacing).executeTakeFirstOrThrow();
        const next: Bucket = { ...this.keyOf(list, at.k, at.id), n: bucket.n - this.spacing };
        await trx
          .updateTable('page_buckets')
          .set({ n: this.spacing })
          .where('list', '=', list.key)
          .where('sort', '=', list.sort)
          .where('num', '=', bucket.num)
          .where('txt', '=', bucket.txt)
          .where('id_key', '=', bucket.id_key)
          .execute();
        await trx
          .insertInto('page_buckets')
          .values({ list: list.key, sort: list.sort, ...next })
          .execute();
        bucket = next;
      }
      await this.raiseVersion(trx, list);
    });
  }

  private keyOf(list: PagedList, k: number | string, id: string): Omit<Bucket, 'n'> {
    return list.sort === 'title' ? { num: 0, txt: String(k), id_key: id } : { num: Number(k), txt: '', id_key: id };
  }
}
