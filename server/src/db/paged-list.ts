import type { QueryCreator, SelectQueryBuilder } from 'kysely';
import type { Database } from './schema.js';

/** What a kept list is: its key, its rows, and the order a page is read in (see list-paging.ts). */
export type BucketSort = 'created_at' | 'views' | 'duration' | 'title';
type Base = SelectQueryBuilder<Database, 'videos', object>;

export interface PagedList {
  /** 'feed', 'listed:<ownerId>' or 'all:<ownerId>': the lists the triggers keep. */
  key: string;
  /** The list's rows, unordered: its filter applied to a query of videos on the given connection. */
  rows: (db: QueryCreator<Database>) => Base;
  sort: BucketSort;
  desc: boolean;
}

/** A bucket's boundary: (num, txt, id_key) compares the way ORDER BY col, id does (see list-paging.ts). */
export interface BucketKey {
  num: number;
  txt: string;
  id_key: string;
}

export const HEAD: BucketKey = { num: -1, txt: '', id_key: '' };
export const isHead = (b: BucketKey) => b.num === HEAD.num && b.txt === HEAD.txt && b.id_key === HEAD.id_key;
