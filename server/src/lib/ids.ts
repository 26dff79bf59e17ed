import { randomBytes } from 'node:crypto';

const ID_BYTES = 12;
/** Random bytes are drawn a page at a time: one call per id cost more than the rest of making it. */
const POOL_BYTES = ID_BYTES * 341;
let pool = Buffer.alloc(0);
let used = 0;

/** URL-safe random ids (96 bits): never sequential, they appear in links. */
export function newId(): string {
  if (used + ID_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  const id = pool.toString('base64url', used, used + ID_BYTES);
  used += ID_BYTES;
  return id;
}

export const toIso = (ms: number) => new Date(ms).toISOString();
