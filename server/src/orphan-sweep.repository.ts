import type { Db } from './db/client.js';

/** Which of the ids stored media is kept under still have their rows. */
export class OrphanSweepRepository {
  constructor(private readonly db: Db) {}

  async existingIds(table: 'videos' | 'users', ids: string[]): Promise<Set<string>> {
    const alive = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db
        .selectFrom(table)
        .select('id')
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const r of rows) alive.add(r.id);
    }
    return alive;
  }
}
