import type { Db } from '../../db/client.js';

/** What the storage quota reads: an account's own limits and the bytes it stores. */
export class StorageQuotaRepository {
  constructor(private readonly db: Db) {}

  /** The account's own quotas; null where it has none and the site's default applies. */
  ownLimits(userId: string) {
    return this.db.selectFrom('users').select(['quota_bytes', 'daily_quota_bytes']).where('id', '=', userId).executeTakeFirst();
  }

  /**
   * Bytes the user's videos' sources (or uploads in progress, at their announced size) take: all of
   * them, and those created since `since`.
   */
  async bytes(table: 'videos' | 'uploads', userId: string, since: number): Promise<{ total: number; recent: number }> {
    const column = table === 'videos' ? 'source_bytes' : 'size';
    // One query shape for both tables; the casts only tell Kysely the column exists on each.
    const sum = (after: number) =>
      this.db
        .selectFrom(table as 'uploads')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(column as 'size'), eb.lit(0)).as('bytes'))
        .where('owner_id', '=', userId)
        .where('created_at', '>=', after)
        .executeTakeFirstOrThrow();
    const [all, recent] = await Promise.all([sum(0), sum(since)]);
    return { total: Number(all.bytes), recent: Number(recent.bytes) };
  }
}
