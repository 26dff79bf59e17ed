import { sql } from 'kysely';
import type { Db } from './client.js';
import type { BucketKey } from './paged-list.js';

/** A list's buckets as this process last read them: boundaries, running counts and the version they had. */
export interface KeptCounts {
  version: number;
  keys: BucketKey[];
  /** Rows of the list before each boundary: non-decreasing. */
  before: number[];
  sizes: number[];
  total: number;
}

interface ListRef {
  key: string;
  sort: string;
}

/**
 * The running counts of the kept lists, read once and kept in memory while their version stands.
 *
 * Summing a million-video list's thousand buckets for every deep page cost more than the page's own
 * seek. A process keeps each list's boundaries with their running counts and the list's version
 * (page_bucket_versions, raised by triggers in the same transaction as any change of a count or a
 * boundary). A page is then found in memory and read with one seek whose statement also reads the
 * version: when it is still the one the counts were read at, the rows are exactly those of
 * ORDER BY col, id LIMIT/OFFSET at that statement's snapshot; otherwise the counts are read again.
 * Nothing else is trusted from memory, so processes sharing a database stay exact.
 */
export class KeptPageCounts {
  readonly #lists = new Map<string, KeptCounts>();

  constructor(
    private readonly db: Db,
    /** Lists kept at once; the least recently read goes first (channels' lists are many and small). */
    private readonly maxLists = 1000,
  ) {}

  /** The list's counts, from memory or read now in one statement; null when it has no buckets yet. */
  async of(list: ListRef): Promise<KeptCounts | null> {
    const id = `${list.key}\u0000${list.sort}`;
    const kept = this.#lists.get(id);
    if (kept) {
      // Read again: to the back of the line.
      this.#lists.delete(id);
      this.#lists.set(id, kept);
      return kept;
    }
    const counts = await this.read(list);
    if (!counts) return null;
    this.#lists.set(id, counts);
    if (this.#lists.size > this.maxLists) this.#lists.delete(this.#lists.keys().next().value!);
    return counts;
  }

  /** Forgets a list whose version moved on (or whose buckets are being changed here). */
  forget(list: ListRef): void {
    this.#lists.delete(`${list.key}\u0000${list.sort}`);
  }

  /** The buckets and the version in one statement, so they belong to one snapshot. */
  private async read(list: ListRef): Promise<KeptCounts | null> {
    const rows = await this.db
      .selectFrom('page_buckets')
      .select(['num', 'txt', 'id_key', 'n', versionOf(list).as('v')])
      .where('list', '=', list.key)
      .where('sort', '=', list.sort)
      .orderBy('num')
      .orderBy('txt')
      .orderBy('id_key')
      .execute();
    if (!rows.length || rows[0]!.v === null) return null;
    const counts: KeptCounts = { version: Number(rows[0]!.v), keys: [], before: [], sizes: [], total: 0 };
    for (const r of rows) {
      counts.keys.push({ num: Number(r.num), txt: r.txt, id_key: r.id_key });
      counts.before.push(counts.total);
      counts.sizes.push(Number(r.n));
      counts.total += Number(r.n);
    }
    return counts;
  }
}

/** The list's version, as a scalar subquery a statement can carry beside its rows. */
export function versionOf(list: ListRef) {
  return sql<number | null>`(select version from page_bucket_versions where list = ${list.key} and sort = ${list.sort})`;
}

/**
 * The boundary to seek from for the row at ascending position `start`, and how many rows past it
 * that row is: the last boundary with no more rows before it than `start` (rows from any such
 * boundary on are the list's rows from its position on, so the last one walks the fewest).
 */
export function locate(counts: KeptCounts, start: number): { from: BucketKey; rest: number } {
  let lo = 0;
  let hi = counts.before.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (counts.before[mid]! <= start) lo = mid;
    else hi = mid - 1;
  }
  return { from: counts.keys[lo]!, rest: start - counts.before[lo]! };
}
