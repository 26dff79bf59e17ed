import type { KvKey, KvStore, KvStoreSetOptions } from '@fedify/fedify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Expired entries are swept at most this often, by a write. */
const SWEEP_EVERY_MS = 60_000;

/**
 * The ActivityPub library's key-value store (remote documents and keys it has fetched, activities
 * it has already handled) in the site's own database, so every API process shares it without
 * Redis. Keys are the JSON of the key's parts; values are JSON.
 */
export class FederationKvRepository implements KvStore {
  private lastSweep = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const row = await this.db.selectFrom('federation_kv').select(['value', 'expires_at']).where('key', '=', JSON.stringify(key)).executeTakeFirst();
    if (!row || (row.expires_at !== null && Number(row.expires_at) <= this.now())) return undefined;
    return JSON.parse(row.value) as T;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const now = this.now();
    const expiresAt = options?.ttl ? now + Math.round(options.ttl.total({ unit: 'millisecond' })) : null;
    const row = { key: JSON.stringify(key), value: JSON.stringify(value), expires_at: expiresAt };
    await this.db
      .insertInto('federation_kv')
      .values(row)
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: row.value, expires_at: row.expires_at }))
      .execute();
    if (now - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = now;
      await this.db.deleteFrom('federation_kv').where('expires_at', 'is not', null).where('expires_at', '<=', now).execute();
    }
  }

  async delete(key: KvKey): Promise<void> {
    await this.db.deleteFrom('federation_kv').where('key', '=', JSON.stringify(key)).execute();
  }
}
